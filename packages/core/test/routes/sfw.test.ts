/**
 * SFW filtering on every endpoint the spec lists (spec, "SFW filtering" rules 1–3), on a catalogue
 * that links a safe root to one entry of each adult kind and one Ecchi entry through every kind of
 * reference. Rule 1: `sfw` drops R+, Rx, Hentai and Erotica; rule 2: `sfw-strict` also drops Ecchi,
 * only together with `sfw`; rule 3: a detail endpoint still returns its root.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryStore } from '../../src/index.js';
import {
  ADULT,
  AIRING,
  ARTICLE,
  CHARACTER,
  KINDS,
  MANGA,
  NEWS,
  NEWS_ALL,
  NOW,
  PERSON,
  ROOT_ANIME,
  ROOT_MANGA,
  SEASON,
  STACK,
  UPCOMING,
  sfwCatalogue,
  type Kind,
} from './sfw-catalogue.js';

const store = createMemoryStore(sfwCatalogue);

function appWith(random: () => number = Math.random) {
  return createCatalogueApp({ store, gateway: false, now: () => NOW, random });
}
const app = appWith();

/** The kind of every anime, manga and news id of the catalogue. */
const KIND_OF = new Map<string, Kind>();
for (const k of KINDS) {
  KIND_OF.set(`anime:${AIRING[k]}`, k);
  KIND_OF.set(`anime:${UPCOMING[k]}`, k);
  KIND_OF.set(`manga:${MANGA[k]}`, k);
  KIND_OF.set(`news:${NEWS[k]}`, k);
}

const REF = /myanimelist\.net\/(anime|manga|news|character|people)\/(\d+)/;

/** Every anime, manga, news item, character and person the body refers to, as `kind:id`, found by their `url`. */
function refs(body: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(body)) for (const item of body) refs(item, out);
  else if (body && typeof body === 'object') {
    const { url } = body as { url?: unknown };
    const m = typeof url === 'string' ? REF.exec(url) : null;
    if (m) out.add(`${m[1]}:${m[2]}`);
    for (const value of Object.values(body)) refs(value, out);
  }
  return out;
}

const kindsIn = (keys: Set<string>) => new Set([...keys].map((key) => KIND_OF.get(key)).filter((k) => k !== undefined));

async function get(path: string, application = app) {
  const res = await application.fetch(new Request(`http://localhost${path}`));
  const body = (await res.json()) as { data: unknown };
  expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

const withQuery = (path: string, extra: string) => (extra ? `${path}${path.includes('?') ? '&' : '?'}${extra}` : path);

/** The modes, as query strings. `sfw-strict` alone has no effect (rule 2). */
const MODES = { off: '', strictAlone: 'sfw-strict', normal: 'sfw', strict: 'sfw&sfw-strict' } as const;

interface Case {
  path: string;
  /** For detail endpoints: the `kind:id` of the root, which every mode must return (rule 3). */
  root?: string;
}

const a = (id: number) => `/v1/anime/${id}`;
const m = (id: number) => `/v1/manga/${id}`;

const CASES: Case[] = [
  { path: '/v1/anime?unapproved' },
  { path: '/v1/anime/ids?include=url' },
  { path: '/v1/manga' },
  { path: '/v1/manga/ids?include=url' },
  { path: `/v1/seasons/${SEASON.year}/${SEASON.season}` },
  { path: '/v1/seasons/now' },
  { path: '/v1/seasons/upcoming' },
  { path: '/v1/schedules' },
  { path: '/v1/top/anime' },
  { path: '/v1/top/manga' },
  { path: '/v1/top/reviews?type=anime' },
  { path: '/v1/top/reviews?type=manga' },
  { path: `${a(ROOT_ANIME)}/full`, root: `anime:${ROOT_ANIME}` },
  { path: `${a(ROOT_ANIME)}/relations` },
  { path: `${a(ROOT_ANIME)}/recommendations` },
  { path: `${a(ROOT_ANIME)}/news` },
  { path: `${m(ROOT_MANGA)}/full`, root: `manga:${ROOT_MANGA}` },
  { path: `${m(ROOT_MANGA)}/relations` },
  { path: `${m(ROOT_MANGA)}/recommendations` },
  { path: `${m(ROOT_MANGA)}/news` },
  { path: `/v1/characters/${CHARACTER}/anime` },
  { path: `/v1/characters/${CHARACTER}/manga` },
  { path: `/v1/characters/${CHARACTER}/full`, root: `character:${CHARACTER}` },
  { path: `/v1/people/${PERSON}/anime` },
  { path: `/v1/people/${PERSON}/manga` },
  { path: `/v1/people/${PERSON}/voices` },
  { path: `/v1/people/${PERSON}/full`, root: `people:${PERSON}` },
  { path: '/v1/recommendations/anime' },
  { path: '/v1/recommendations/manga' },
  { path: '/v1/reviews/anime' },
  { path: '/v1/reviews/manga' },
  { path: `/v1/news/${NEWS_ALL}` },
  { path: `/v1/articles/${ARTICLE}` },
  { path: `/v1/stacks/${STACK}` },
];

describe.each(CASES)('SFW on $path', ({ path, root }) => {
  it('shows every adult kind (R+, Rx, Hentai, Erotica) and Ecchi without sfw, and with sfw-strict alone', async () => {
    for (const mode of [MODES.off, MODES.strictAlone]) {
      const kinds = kindsIn(refs(await get(withQuery(path, mode))));
      for (const kind of [...ADULT, 'ecchi' as const]) expect(kinds, `${mode || 'no flag'}: ${kind}`).toContain(kind);
    }
  });

  it('drops every adult entry with sfw and keeps Ecchi', async () => {
    const kinds = kindsIn(refs(await get(withQuery(path, MODES.normal))));
    for (const kind of ADULT) expect(kinds).not.toContain(kind);
    expect(kinds).toContain('ecchi');
  });

  it('drops Ecchi too with sfw and sfw-strict', async () => {
    const kinds = kindsIn(refs(await get(withQuery(path, MODES.strict))));
    for (const kind of [...ADULT, 'ecchi' as const]) expect(kinds).not.toContain(kind);
  });

  if (root) {
    it('returns the root record in every mode (rule 3)', async () => {
      for (const mode of Object.values(MODES)) {
        const { data } = (await get(withQuery(path, mode))) as { data: { mal_id: number; url: string } };
        expect(refs({ url: data.url })).toContain(root);
      }
    });
  }
});

describe.each(['anime', 'manga'] as const)('the detail endpoints of an adult %s', (kind) => {
  it.each([...ADULT, 'ecchi' as const])('still return the %s root with sfw and sfw-strict (rule 3)', async (k) => {
    const id = kind === 'anime' ? AIRING[k] : MANGA[k];
    for (const sub of ['', '/full']) {
      const { data } = (await get(`/v1/${kind}/${id}${sub}?sfw&sfw-strict`)) as { data: { mal_id: number } };
      expect(data.mal_id).toBe(id);
    }
    // Its sub-resources answer 200 too: filtering never turns the root into a 404.
    for (const sub of ['/relations', '/recommendations', '/news']) await get(`/v1/${kind}/${id}${sub}?sfw&sfw-strict`);
  });

  it('keeps the news that concern no hidden entry but the root itself', async () => {
    const id = kind === 'anime' ? AIRING.rx : MANGA.rx;
    const own = { ...sfwCatalogue.news![0]!, mal_id: 499, url: 'https://myanimelist.net/news/499', anime_ids: [], manga_ids: [], [`${kind}_ids`]: [id] };
    const application = createCatalogueApp({ store: createMemoryStore({ ...sfwCatalogue, news: [...sfwCatalogue.news!, own] }), gateway: false, now: () => NOW });
    const { data } = (await get(`/v1/${kind}/${id}/news?sfw`, application)) as { data: Array<{ url: string }> };
    expect(data.map((n) => n.url)).toEqual([own.url]);
  });
});

describe.each([
  ['anime', AIRING],
  ['manga', MANGA],
] as const)('SFW on /v1/random/%s', (kind, ids) => {
  // The store picks the floor(pick × count)-th match, so stepping `pick` through [0, 1) visits every match.
  async function picks(mode: string): Promise<Set<Kind>> {
    const seen = new Set<Kind>();
    const steps = 24;
    let i = 0;
    const application = appWith(() => (i++ % steps) / steps);
    for (let n = 0; n < steps; n++) {
      const { data } = (await get(withQuery(`/v1/random/${kind}`, mode), application)) as { data: { mal_id: number } };
      const found = KINDS.find((k) => ids[k] === data.mal_id || (kind === 'anime' && UPCOMING[k] === data.mal_id));
      if (found) seen.add(found);
    }
    return seen;
  }

  it('can pick every kind without sfw', async () => {
    expect([...(await picks(MODES.off))].sort()).toEqual([...KINDS].sort());
  });

  it('never picks an adult entry with sfw, but can pick Ecchi', async () => {
    const seen = await picks(MODES.normal);
    for (const k of ADULT) expect(seen).not.toContain(k);
    expect(seen).toContain('ecchi');
  });

  it('never picks an adult or Ecchi entry with sfw and sfw-strict', async () => {
    expect([...(await picks(MODES.strict))].sort()).toEqual(['safe']);
  });
});

describe('relations a mode hides whole', () => {
  // Met before the root's other groups: one whose only entry is adult, and one whose first entry is.
  const row = (relation: string, to_id: number) => ({ from_type: 'anime' as const, from_id: ROOT_ANIME, relation, to_type: 'anime' as const, to_id });
  const first = [row('Prequel', AIRING.rx), row('Sequel', AIRING.rx), row('Summary', AIRING.ecchi), row('Sequel', AIRING.ecchi)];
  const application = createCatalogueApp({ store: createMemoryStore({ ...sfwCatalogue, relations: [...first, ...sfwCatalogue.relations!] }), gateway: false, now: () => NOW });
  const groups = async (path: string) => ((await get(path, application)) as { data: Array<{ relation: string }> }).data.map((g) => g.relation);

  it('are left out, and the other groups keep the order they were first met in', async () => {
    expect(await groups(`${a(ROOT_ANIME)}/relations`)).toEqual(['Prequel', 'Sequel', 'Summary', 'Side Story', 'Adaptation']);
    expect(await groups(`${a(ROOT_ANIME)}/relations?sfw`)).toEqual(['Sequel', 'Summary', 'Side Story', 'Adaptation']);
    const full = (await get(`${a(ROOT_ANIME)}/full?sfw`, application)) as { data: { relations: Array<{ relation: string }> } };
    expect(full.data.relations.map((g) => g.relation)).toEqual(['Sequel', 'Summary', 'Side Story', 'Adaptation']);
  });
});
