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

  it("show a related entry's new title on /full and /relations once it is written", async () => {
    const store = createMemoryStore(demoData);
    const app = appOver(store);
    type Relation = { entry: Array<{ name: string }> };
    const names = async (target: string) => {
      const res = await app.fetch(new Request(`http://localhost${target}`));
      const body = (await res.json()) as { data: { relations: Relation[] } | Relation[] };
      const relations = Array.isArray(body.data) ? body.data : body.data.relations;
      return { etag: res.headers.get('etag'), names: relations.flatMap((r) => r.entry.map((e) => e.name)) };
    };
    // Naruto (20) and its related manga (11), asked for twice: the second answer is made from what the first kept.
    const before = await names('/v1/anime/20/full');
    expect(before.names).toContain('Naruto');
    expect(await names('/v1/anime/20/full')).toEqual(before);
    expect((await names('/v1/anime/20/relations')).names).toEqual(before.names);
    const manga = (await store.get('manga', 11))!;
    await store.upsert('manga', [{ ...manga, title: 'Naruto (renamed)' }]);
    const renamed = await names('/v1/anime/20/full');
    expect(renamed.names).toEqual(before.names.map((name) => (name === 'Naruto' ? 'Naruto (renamed)' : name)));
    expect(renamed.etag).not.toBe(before.etag);
    expect((await names('/v1/anime/20/relations')).names).toEqual(renamed.names);
  });
});

describe('id lists written by the store (selectJson)', () => {
  // The memory store with a `selectJson` that writes what `query` gives, as a store whose back
  // end writes JSON does: the answers must be the bytes core writes without it, image paths
  // resolved against the CDN as always.
  const withSelectJson = (store: CatalogueStore): CatalogueStore => {
    const asked: string[][] = [];
    return Object.assign(Object.create(store) as CatalogueStore, {
      asked,
      async selectJson(collection: Parameters<CatalogueStore['query']>[0], select: readonly string[], q: Parameters<CatalogueStore['pluck']>[2]) {
        asked.push([...select]);
        if (select.includes('score')) return undefined;
        const { data } = await store.query(collection, { ...q, select: [...select] });
        return { count: data.length, json: new TextEncoder().encode(JSON.stringify(data)) };
      },
    });
  };

  it('answer byte for byte as without it, with and without image paths, and when the store declines', async () => {
    // One anime whose image is a `/s/` path, which only core resolves.
    const first = demoData.anime[0]!;
    const pathed = { ...first, images: { ...first.images, jpg: { ...first.images.jpg, image_url: '/s/common/uploaded_files/1.jpg' } } };
    const memories = [createMemoryStore(demoData), createMemoryStore(demoData)];
    for (const memory of memories) await memory.upsert('anime', [pathed]);
    const plain = appOver(memories[0]!);
    const store = withSelectJson(memories[1]!);
    const written = appOver(store);
    const targets = ['/v1/anime/ids?include=title', '/v1/anime/ids?include=title,type&type=tv', '/v1/manga/ids?include=title', '/v1/anime/ids?include=images', '/v1/anime/ids?include=score', '/v1/anime/ids'];
    for (const target of targets) {
      const a = await plain.fetch(new Request(`http://localhost${target}`));
      const b = await written.fetch(new Request(`http://localhost${target}`));
      const body = await b.text();
      expect(b.status, target).toBe(200);
      expect(body, target).toBe(await a.text());
      // A list parsed for its image paths is tagged from its records' digests, as any spliced page.
      if (!target.includes('images')) expect(b.headers.get('etag'), target).toBe(a.headers.get('etag'));
      if (target.includes('images')) expect(body, target).toContain('"https://cdn.myanimelist.net/images/s/common/uploaded_files/1.jpg"');
      expect(body, target).not.toContain('"/s/');
    }
    expect((store as unknown as { asked: string[][] }).asked).toEqual([['mal_id', 'title'], ['mal_id', 'title', 'type'], ['mal_id', 'title'], ['mal_id', 'images'], ['mal_id', 'score']]);
  });
});
