/**
 * A Jikan v4 client pointed at this API: handling the error envelope, 429 with Retry-After, and
 * a Server Key. Shown in docs/migrating-from-jikan.md.
 * @module
 */
// #region client
/** The error envelope of every non-2xx answer. */
interface ApiErrorBody {
  status: number;
  type: string; // e.g. 'BadRequestException', 'RateLimitException'
  message: string;
  error: string;
  path: string;
}

export async function getJson<T>(url: string, options: { serverKey?: string; fetch?: typeof fetch } = {}): Promise<T> {
  const doFetch = options.fetch ?? fetch;
  const headers: Record<string, string> = options.serverKey ? { 'X-Server-Key': options.serverKey } : {};
  for (let attempt = 0; ; attempt++) {
    const response = await doFetch(url, { headers });
    if (response.ok) return (await response.json()) as T;
    const body = (await response.json()) as ApiErrorBody;
    // 429 (and 503) carry Retry-After in whole seconds: wait that long, then try again.
    const retryAfter = Number(response.headers.get('retry-after'));
    if ((body.status === 429 || body.status === 503) && retryAfter > 0 && attempt < 3) {
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      continue;
    }
    throw new Error(`${body.type}: ${body.message} (${body.error})`);
  }
}
// #endregion client
