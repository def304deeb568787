/**
 * The Web-standard door: `app.fetch(request)` without any server. Shown in docs/embedding.md.
 * @module
 */
// #region fetch
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const app = createCatalogueApp({ store: createMemoryStore(demoData) });

// Any host that speaks Request/Response (Bun, Deno, Cloudflare-style workers, tests) can call this.
export default { fetch: (request: Request) => app.fetch(request) };

export async function firstTitle(): Promise<string> {
  const response = await app.fetch(new Request('http://localhost/v1/anime?q=bebop&limit=1'));
  const body = (await response.json()) as { data: Array<{ title: string }> };
  return body.data[0]!.title;
}
// #endregion fetch
