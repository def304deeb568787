import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../src/index.js';
import { demoData } from '../../demo-data/src/index.js';
import { answersOf } from '../../testkit/src/answers.js';
import { defineCatalogueContract } from '../../testkit/src/catalogue-contract.js';
import { defineStoreContract } from '../../testkit/src/store-contract.js';

defineStoreContract('memory', () => createMemoryStore());
defineCatalogueContract('memory', () => createMemoryStore(demoData));

describe('memory store genre counts', () => {
  const get = answersOf(createMemoryStore(demoData));
  it.each(['anime', 'manga'] as const)('counts each %s genre once per entry tagged with it, and not the other kind', async (kind) => {
    const entries: readonly { genres: { mal_id: number }[]; explicit_genres: { mal_id: number }[]; themes: { mal_id: number }[]; demographics: { mal_id: number }[] }[] =
      kind === 'anime' ? demoData.anime : (demoData.manga ?? []);
    const genres = (await get<{ mal_id: number; count: number }[]>(`/v1/genres/${kind}`))!.data;
    expect(genres.length).toBeGreaterThan(0);
    for (const g of genres) {
      const tagged = entries.filter((e) => [...e.genres, ...e.explicit_genres, ...e.themes, ...e.demographics].some((r) => r.mal_id === g.mal_id));
      expect(g.count, `${kind} genre ${g.mal_id}`).toBe(tagged.length);
    }
  });
});

describe('memory store: what a one-letter query keeps when more than 300 entries match', () => {
  // 400 entries named "Zqx <i>", with popularity and favourites scrambled (both unique).
  const scrambled = (i: number) => (i * 7919) % 997;
  const anime = demoData.anime[0]!;
  const manga = demoData.manga![0]!;
  const character = demoData.characters![0]!;
  const person = demoData.people![0]!;
  const named = (i: number) => ({ mal_id: 7_000_000 + i, title: `Zqx ${i}`, name: `Zqx ${i}` });
  const get = answersOf(createMemoryStore({
    anime: Array.from({ length: 400 }, (_, i) => ({ ...anime, ...named(i), titles: [], title_synonyms: [], title_english: null, title_japanese: null, popularity: scrambled(i) })),
    manga: Array.from({ length: 400 }, (_, i) => ({ ...manga, ...named(i), titles: [], title_synonyms: [], title_english: null, title_japanese: null, popularity: scrambled(i) })),
    characters: Array.from({ length: 400 }, (_, i) => ({ ...character, ...named(i), name_kanji: null, nicknames: [], favorites: scrambled(i) })),
    people: Array.from({ length: 400 }, (_, i) => ({ ...person, ...named(i), given_name: null, family_name: null, alternate_names: [], favorites: scrambled(i) })),
  }));
  const kept = (n: number, best: (i: number) => number) =>
    Array.from({ length: 400 }, (_, i) => i)
      .sort((x, y) => best(x) - best(y))
      .slice(0, n)
      .map((i) => 7_000_000 + i)
      .sort((a, b) => a - b);
  /** Every hit of `?q=z` over unapproved entries too, ten pages of 50. */
  const all = async (path: string) => {
    const ids: number[] = [];
    for (let page = 1; page <= 10; page++) ids.push(...(await get<{ mal_id: number }[]>(`${path}?q=z&unapproved&limit=50&page=${page}`))!.data.map((e) => e.mal_id));
    return ids.sort((a, b) => a - b);
  };

  it('anime and manga: the 300 most popular', async () => {
    expect(await all('/v1/anime')).toEqual(kept(300, scrambled));
    expect(await all('/v1/manga')).toEqual(kept(300, scrambled));
  });

  it('characters and people: the 300 most favourited', async () => {
    expect(await all('/v1/characters')).toEqual(kept(300, (i) => -scrambled(i)));
    expect(await all('/v1/people')).toEqual(kept(300, (i) => -scrambled(i)));
  });
});
