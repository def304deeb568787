/**
 * A `/full` answer follows every record it is made from: with the response cache off, a write to the
 * entry, to a record hanging off it (its themes, streaming links, external links, relations) or to
 * an entry it relates to is answered by the very next request, with a new body and a new `ETag`,
 * however many times the same `/full` was answered before. Shared by the memory store's test
 * (`full-changes.test.ts`) and the PostgreSQL store's (`packages/store-postgres/test/full-changes.test.ts`).
 */
import { expect } from 'vitest';
import type { App } from '../src/index.js';
import type { CatalogueStore } from '../src/entry-store.js';
import type { Anime } from '../src/entry-schemas.js';

/** Each write, and what the next `/v1/anime/20/full` must then hold. */
export interface FullChange {
  readonly name: string;
  write(store: CatalogueStore): Promise<unknown>;
  /** Reads the change back from the answer's `data`. */
  seen(data: Record<string, unknown>): unknown;
  readonly expected: unknown;
}

/** The changes, made one after the other on a store that holds the demo data. */
export function fullChanges(anime: readonly Anime[]): FullChange[] {
  const naruto = anime.find((a) => a.mal_id === 20)!;
  const sequel = anime.find((a) => a.mal_id === 1735)!;
  const relatedTitles = (data: Record<string, unknown>) =>
    (data.relations as Array<{ entry: Array<{ mal_id: number; name: string }> }>).flatMap((r) => r.entry).find((e) => e.mal_id === 1735)?.name;
  return [
    { name: 'the entry', write: (s) => s.upsert('anime', [{ ...naruto, title: 'Naruto (changed)' }]), seen: (d) => d.title, expected: 'Naruto (changed)' },
    {
      name: 'its themes',
      write: (s) => s.upsert('themes', [{ anime_id: 20, openings: ['1: "Changed"'], endings: [] }]),
      seen: (d) => (d.theme as { openings: string[] }).openings,
      expected: ['1: "Changed"'],
    },
    {
      name: 'its streaming links',
      write: (s) => s.upsert('streaming', [{ anime_id: 20, links: [{ name: 'Changed', url: 'https://example.com/changed' }] }]),
      seen: (d) => d.streaming,
      expected: [{ name: 'Changed', url: 'https://example.com/changed' }],
    },
    {
      name: 'its external links',
      write: (s) => s.upsert('external', [{ type: 'anime', mal_id: 20, links: [{ name: 'Changed', url: 'https://example.com/x' }] }]),
      seen: (d) => d.external,
      expected: [{ name: 'Changed', url: 'https://example.com/x' }],
    },
    { name: 'an entry it relates to', write: (s) => s.upsert('anime', [{ ...sequel, title: 'Shippuuden (changed)' }]), seen: relatedTitles, expected: 'Shippuuden (changed)' },
  ];
}

/** Answers `/v1/anime/20/full` a few times, then makes each change and checks the next answer. */
export async function checkFullChanges(app: App, store: CatalogueStore, anime: readonly Anime[]): Promise<void> {
  const get = async () => {
    const response = await app.fetch(new Request('http://localhost/v1/anime/20/full'));
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(JSON.stringify(JSON.parse(body))).toBe(body);
    return { body, etag: response.headers.get('etag'), data: (JSON.parse(body) as { data: Record<string, unknown> }).data };
  };
  let last = await get();
  for (let i = 0; i < 3; i++) expect(await get()).toEqual(last);
  for (const change of fullChanges(anime)) {
    await change.write(store);
    const next = await get();
    expect(change.seen(next.data), change.name).toEqual(change.expected);
    expect(next.body, change.name).not.toBe(last.body);
    expect(next.etag, change.name).not.toBe(last.etag);
    expect(await get(), change.name).toEqual(next);
    last = next;
  }
}
