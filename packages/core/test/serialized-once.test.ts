/**
 * Pages spliced from their records' kept JSON (record-json.ts): every route's body is exactly what
 * `JSON.stringify` writes of the parsed body (nothing lost, added or reordered by the splicing),
 * over the requests the differential contract makes of every documented route; and an entity tag
 * changes when one record of its page does.
 */
import { demoData } from '@catalogue-api/demo-data';
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryStore, createOpenApiDocument } from '../src/index.js';
import { type CatalogueStore } from '../src/entry-store.js';
import { differentialRequests } from '../../testkit/src/differential.js';

const now = () => Date.UTC(2024, 3, 15, 12);
const random = () => 0.42;
const logger = { error: () => {} };
const appOver = (store: CatalogueStore) => createCatalogueApp({ store, gateway: { rateLimit: false, cache: false }, now, random, logger });

describe('bodies spliced from records', () => {
  it('are byte for byte JSON.stringify of themselves on every route', async () => {
    const app = appOver(createMemoryStore(demoData));
    const requests = differentialRequests(createOpenApiDocument());
    const problems: string[] = [];
    let checked = 0;
    for (const { target } of requests) {
      const res = await app.fetch(new Request(`http://localhost${target}`));
      const text = await res.text();
      if (!res.headers.get('content-type')?.startsWith('application/json')) continue;
      checked++;
      if (text !== JSON.stringify(JSON.parse(text))) problems.push(target);
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  }, 120_000);

  it('get a new entity tag when one record of the page changes, and keep it otherwise', async () => {
    const store = createMemoryStore(demoData);
    const app = appOver(store);
    const get = async (target: string) => {
      const res = await app.fetch(new Request(`http://localhost${target}`));
      return { etag: res.headers.get('etag'), body: await res.text() };
    };
    const page = '/v1/anime?q=naruto&limit=25';
    const first = await get(page);
    expect(first.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]{16}"$/);
    expect((await get(page)).etag).toBe(first.etag);
    const records = (JSON.parse(first.body) as { data: Array<{ mal_id: number }> }).data;
    const id = records[records.length - 1]!.mal_id;
    const record = (await store.get('anime', id))!;
    // One character of a synopsis: the page's length stays, its bytes do not.
    const synopsis = String(record.synopsis ?? 'x');
    await store.upsert('anime', [{ ...record, synopsis: (synopsis[0] === 'A' ? 'B' : 'A') + synopsis.slice(1) }]);
    const second = await get(page);
    expect(second.body.length).toBe(first.body.length);
    expect(second.body).not.toBe(first.body);
    expect(second.etag).not.toBe(first.etag);
    // The detail and /full of that record change too.
    const detail = await get(`/v1/anime/${id}/full`);
    await store.upsert('anime', [{ ...record }]);
    expect((await get(`/v1/anime/${id}/full`)).etag).not.toBe(detail.etag);
    expect((await get(page)).etag).toBe(first.etag);
  });
});
