import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../src/index.js';
import { demoData } from '../../demo-data/src/index.js';
import { defineStoreContract } from '../../testkit/src/store-contract.js';

defineStoreContract('memory', () => createMemoryStore(demoData));

describe('memory store genre counts', () => {
  const store = createMemoryStore(demoData);
  it.each(['anime', 'manga'] as const)('counts each %s genre once per entry tagged with it, and not the other kind', async (kind) => {
    const entries: readonly { genres: { mal_id: number }[]; explicit_genres: { mal_id: number }[]; themes: { mal_id: number }[]; demographics: { mal_id: number }[] }[] =
      kind === 'anime' ? demoData.anime : (demoData.manga ?? []);
    const genres = await store.listGenres(kind);
    expect(genres.length).toBeGreaterThan(0);
    for (const g of genres) {
      const tagged = entries.filter((e) => [...e.genres, ...e.explicit_genres, ...e.themes, ...e.demographics].some((r) => r.mal_id === g.mal_id));
      expect(g.count, `${kind} genre ${g.mal_id}`).toBe(tagged.length);
    }
  });
});
