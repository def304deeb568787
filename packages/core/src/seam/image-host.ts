/**
 * Image paths that begin with `/s/` are relative to the image host, `{cdn_url}/images` (spec,
 * "Other resources" and the v1 change "a corrected image host prefix for /s/ paths"). Stores keep
 * such paths as they are; the API resolves them once, on the way out, with this function.
 * @module
 */

/** The default CDN of the catalogue's images. */
export const DEFAULT_CDN_URL = 'https://cdn.myanimelist.net';

/**
 * Resolves every string that begins with `/s/` inside a response body against `{cdnUrl}/images`.
 * Objects and arrays are copied only where something changed, so bodies without such paths are
 * returned as they are (no allocation on the common path).
 * @param body - A JSON-shaped response body.
 * @param cdnUrl - The CDN base URL, without a trailing slash.
 * @returns The body with resolved URLs.
 * @example
 * ```ts
 * resolveImagePaths({ jpg: { image_url: '/s/a.jpg' } }, 'https://cdn.example');
 * // { jpg: { image_url: 'https://cdn.example/images/s/a.jpg' } }
 * ```
 */
export function resolveImagePaths<T>(body: T, cdnUrl: string = DEFAULT_CDN_URL): T {
  const host = `${cdnUrl.replace(/\/+$/, '')}/images`;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return value.startsWith('/s/') ? host + value : value;
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const next = walk(value[i]);
        if (next !== value[i]) (out ??= value.slice())[i] = next;
      }
      return out ?? value;
    }
    if (value !== null && typeof value === 'object') {
      let out: Record<string, unknown> | undefined;
      for (const [k, v] of Object.entries(value)) {
        const next = walk(v);
        if (next !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = next;
      }
      return out ?? value;
    }
    return value;
  };
  return walk(body) as T;
}
