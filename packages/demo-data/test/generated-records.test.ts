/**
 * What a person reading one response can tell: generated casts, staff, songs and manga say so in
 * the record itself; episode counts agree with the episode lists; and the most popular entries,
 * the first a newcomer opens, are not bare.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryStore } from '../../core/src/index.js';
import { demoData } from '../src/index.js';

/** Ids at and above these are generated (scripts/demo-data/build-catalogue.mjs). */
const GEN_MANGA_ID = 900_001;
const GEN_CHARACTER_ID = 700_001;
const GEN_PERSON_ID = 800_001;
const MARK = '(generated)';

const app = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false });
/** The `data` of a GET, as a client reads it. */
async function get(path: string): Promise<any> {
  const res = await app.fetch(new Request(`http://localhost${path}`));
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: unknown }).data;
}
const mostPopular = <T extends { approved: boolean; members: number | null; mal_id: number }>(list: readonly T[], n: number) =>
  list
    .filter((e) => e.approved)
    .sort((x, y) => (y.members ?? 0) - (x.members ?? 0) || x.mal_id - y.mal_id)
    .slice(0, n);

describe('generated records say so in the record', () => {
  it('names every generated character and person "(generated)", with an about saying so', () => {
    const characters = (demoData.characters ?? []).filter((c) => c.mal_id >= GEN_CHARACTER_ID);
    const people = (demoData.people ?? []).filter((p) => p.mal_id >= GEN_PERSON_ID);
    expect(characters.length).toBeGreaterThan(100);
    expect(people.length).toBeGreaterThan(100);
    for (const r of [...characters, ...people]) {
      expect(r.name, String(r.mal_id)).toContain(MARK);
      expect(r.about, String(r.mal_id)).toMatch(/generated/);
    }
  });

  it("shows Cowboy Bebop's cast, staff and songs as generated", async () => {
    const cast = await get('/v1/anime/1/characters');
    expect(cast.length).toBeGreaterThan(0);
    for (const row of cast) {
      expect(row.character.name).toContain(MARK);
      for (const va of row.voice_actors) expect(va.person.name).toContain(MARK);
    }
    const staff = await get('/v1/anime/1/staff');
    expect(staff.length).toBeGreaterThan(0);
    for (const row of staff) expect(row.person.name).toContain(MARK);
    const themes = await get('/v1/anime/1/themes');
    for (const song of [...themes.openings, ...themes.endings]) expect(song).toContain(MARK);
  });

  it('marks every generated song, manga and the authors of generated manga', () => {
    for (const t of demoData.themes ?? []) for (const song of [...t.openings, ...t.endings]) expect(song, String(t.anime_id)).toContain(MARK);
    const generated = (demoData.manga ?? []).filter((m) => m.mal_id >= GEN_MANGA_ID);
    expect(generated.length).toBeGreaterThan(0);
    for (const m of generated) {
      expect(m.synopsis, String(m.mal_id)).toMatch(/generated/i);
      for (const a of m.authors) expect(a.name, String(m.mal_id)).toContain(MARK);
    }
  });
});

describe('generated records link nowhere real', () => {
  /** Every string under a value that is a URL, with where it was found. */
  function* urlsOf(value: unknown, where: string): Generator<[string, string]> {
    if (typeof value === 'string') {
      if (/^https?:\/\//.test(value)) yield [value, where];
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) yield* urlsOf(value[i], `${where}[${i}]`);
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) yield* urlsOf(inner, `${where}.${key}`);
    }
  }
  const host = (url: string) => new URL(url).hostname;
  /**
   * A link to a real record the generated one is about: a real anime or manga page (and its
   * genre pages), or its cover on MAL's image host.
   */
  const real = (url: string) => {
    const { hostname, pathname } = new URL(url);
    if (hostname === 'cdn.myanimelist.net') return true;
    const id = /^\/(?:anime|manga)\/(\d+)\//.exec(pathname)?.[1];
    return hostname === 'myanimelist.net' && (/^\/(?:anime|manga)\/genre\//.test(pathname) || (id !== undefined && Number(id) < GEN_CHARACTER_ID));
  };

  it('puts every generated character, person and manga under generated.invalid', () => {
    const generated = [
      ...(demoData.characters ?? []).filter((c) => c.mal_id >= GEN_CHARACTER_ID),
      ...(demoData.people ?? []).filter((p) => p.mal_id >= GEN_PERSON_ID),
      ...(demoData.manga ?? []).filter((m) => m.mal_id >= GEN_MANGA_ID),
    ];
    expect(generated.length).toBeGreaterThan(200);
    for (const r of generated) expect(host(r.url), String(r.mal_id)).toBe('generated.invalid');
  });

  it('links generated community content (reviews, users, news, articles, stacks, forum, producers) to no real host', () => {
    const collections = ['reviews', 'recommendations', 'news', 'articles', 'stacks', 'forum', 'producers', 'newsTags', 'articleTags'] as const;
    let seen = 0;
    for (const name of collections) {
      const records = (demoData as unknown as Record<string, unknown[] | undefined>)[name] ?? [];
      for (const [url, where] of urlsOf(records, name)) {
        seen++;
        if (!real(url)) expect(host(url), where).not.toMatch(/(^|\.)myanimelist\.net$/);
      }
    }
    expect(seen).toBeGreaterThan(1000);
  });
});

describe('counts agree', () => {
  it('lists as many episodes as an anime counts, wherever it has an episode list', async () => {
    const listed = new Map<number, number>();
    for (const e of demoData.episodes ?? []) listed.set(e.anime_id, (listed.get(e.anime_id) ?? 0) + 1);
    expect(listed.get(1)).toBe(26);
    const res = await app.fetch(new Request('http://localhost/v1/anime/1/episodes'));
    const body = (await res.json()) as { data: unknown[]; pagination: { has_next_page: boolean } };
    expect(body.data.length).toBe(26);
    expect(body.pagination.has_next_page).toBe(false);
    for (const a of demoData.anime) {
      const n = listed.get(a.mal_id);
      if (n !== undefined && a.episodes !== null) expect(n, `${a.mal_id} ${a.title}`).toBe(a.episodes);
    }
  });
});

describe('the most popular entries are not bare', () => {
  for (const [kind, n] of [['anime', 25], ['manga', 10]] as const) {
    it(`gives the ${n} most popular ${kind} characters, recommendations, news, reviews and pictures`, async () => {
      const records = kind === 'anime' ? demoData.anime : (demoData.manga ?? []);
      const ids = mostPopular<{ approved: boolean; members: number | null; mal_id: number }>(records, n).map((e) => e.mal_id);
      // Sousou no Frieren: the most popular recent anime, the first many try.
      if (kind === 'anime') ids.push(52991);
      for (const id of ids) {
        for (const sub of ['characters', 'recommendations', 'news', 'reviews', 'pictures']) {
          expect((await get(`/v1/${kind}/${id}/${sub}`)).length, `/v1/${kind}/${id}/${sub}`).toBeGreaterThan(0);
        }
      }
    });
  }
});
