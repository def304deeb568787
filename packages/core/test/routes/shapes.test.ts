/**
 * The response shape of every catalogue endpoint on the demo dataset, against the zod definitions
 * (`route.response`). A body must parse, lose nothing to parsing
 * (so it has no field the schema does not define), and carry data (a non-empty list or a record).
 * Every route of the table needs an example URL here, so a new route cannot go untested.
 */
import { demoData } from '@catalogue-api/demo-data';
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryStore } from '../../src/index.js';
import { catalogueRoutes } from '../../src/catalogue/routes/index.js';
import { unavailableRoutes } from '../../src/catalogue/routes/unavailable.js';

const d = demoData;
/** The first id `pick` finds; 1 when there is none (that route's test then fails for want of data). */
function first<T>(items: readonly T[] | undefined, _what: string, pick: (item: T) => number | undefined): number {
  for (const item of items ?? []) {
    const id = pick(item);
    if (id !== undefined) return id;
  }
  return 1;
}

const SEASON_MONTH = { winter: 1, spring: 4, summer: 7, fall: 10 } as const;
const seasonal = d.anime.find((a) => a.season && a.year && a.approved)!;
// Mid-season, so that /v1/seasons/now is the season of `seasonal`.
const now = Date.UTC(seasonal.year!, SEASON_MONTH[seasonal.season!] - 1 + 1, 15);

const app = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false, now: () => now });

const episode = d.episodes![0]!;
const animeRelation = first(d.relations, 'anime relation', (r) => (r.from_type === 'anime' ? r.from_id : undefined));
const mangaRelation = first(d.relations, 'manga relation', (r) => (r.from_type === 'manga' ? r.from_id : undefined));
const news = d.news!.find((n) => n.anime_ids.length + n.manga_ids.length > 0)!;
const article = d.articles![0]!;
const stack = d.stacks![0]!;
// "Mondays" → "monday": a day on which some airing TV anime is broadcast.
const weekday = d.anime
  .find((a) => a.approved && a.airing && a.type === 'TV' && a.broadcast.day)!
  .broadcast.day!.toLowerCase()
  .replace(/s$/, '');

/** One example request per route pattern, with ids that have data for that sub-resource. */
const EXAMPLES: Record<string, string> = {
  '/v1/anime': '/v1/anime',
  '/v1/anime/ids': '/v1/anime/ids',
  '/v1/anime/deleted': '/v1/anime/deleted',
  '/v1/manga/ids': '/v1/manga/ids?include=title,type',
  '/v1/manga/deleted': '/v1/manga/deleted',
  '/v1/anime/:id': `/v1/anime/${d.anime[0]!.mal_id}`,
  '/v1/anime/:id/full': `/v1/anime/${animeRelation}/full`,
  '/v1/anime/:id/relations': `/v1/anime/${animeRelation}/relations`,
  '/v1/anime/:id/recommendations': `/v1/anime/${first(d.recommendations, 'anime recommendation', (r) => (r.type === 'anime' ? r.entry_ids[0] : undefined))}/recommendations`,
  '/v1/anime/:id/news': `/v1/anime/${first(d.news, 'anime news', (n) => n.anime_ids[0])}/news`,
  '/v1/anime/:id/reviews': `/v1/anime/${first(d.reviews, 'anime review', (r) => (r.type === 'anime' ? r.entry_id : undefined))}/reviews?preliminary&spoilers`,
  '/v1/anime/:id/videos': `/v1/anime/${d.videos![0]!.anime_id}/videos`,
  '/v1/anime/:id/videos/episodes': `/v1/anime/${first(d.videos, 'episode video', (v) => (v.episodes.length ? v.anime_id : undefined))}/videos/episodes`,
  '/v1/anime/:id/characters': `/v1/anime/${d.animeCharacters![0]!.anime_id}/characters`,
  '/v1/anime/:id/staff': `/v1/anime/${d.animeStaff![0]!.anime_id}/staff`,
  '/v1/anime/:id/episodes': `/v1/anime/${episode.anime_id}/episodes`,
  '/v1/anime/:id/episodes/:episode': `/v1/anime/${episode.anime_id}/episodes/${episode.mal_id}`,
  '/v1/anime/:id/forum': `/v1/anime/${d.forum![0]!.anime_id}/forum?filter=episode`,
  '/v1/anime/:id/stacks': `/v1/anime/${first(d.stacks, 'anime stack entry', (s) => s.entries.find((e) => e.type === 'anime')?.mal_id)}/stacks`,
  '/v1/anime/:id/articles': `/v1/anime/${first(d.articles, 'anime article', (a) => a.anime_ids[0])}/articles`,
  '/v1/anime/:id/pictures': `/v1/anime/${first(d.pictures, 'anime pictures', (p) => (p.type === 'anime' ? p.mal_id : undefined))}/pictures`,
  '/v1/anime/:id/statistics': `/v1/anime/${d.animeStatistics![0]!.anime_id}/statistics`,
  '/v1/anime/:id/moreinfo': `/v1/anime/${first(d.moreinfo, 'anime moreinfo', (m) => (m.type === 'anime' ? m.mal_id : undefined))}/moreinfo`,
  '/v1/anime/:id/themes': `/v1/anime/${d.themes![0]!.anime_id}/themes`,
  '/v1/anime/:id/external': `/v1/anime/${first(d.external, 'anime links', (e) => (e.type === 'anime' ? e.mal_id : undefined))}/external`,
  '/v1/anime/:id/streaming': `/v1/anime/${d.streaming![0]!.anime_id}/streaming`,
  '/v1/manga': '/v1/manga',
  '/v1/manga/:id': `/v1/manga/${d.manga![0]!.mal_id}`,
  '/v1/manga/:id/full': `/v1/manga/${mangaRelation}/full`,
  '/v1/manga/:id/relations': `/v1/manga/${mangaRelation}/relations`,
  '/v1/manga/:id/recommendations': `/v1/manga/${first(d.recommendations, 'manga recommendation', (r) => (r.type === 'manga' ? r.entry_ids[0] : undefined))}/recommendations`,
  '/v1/manga/:id/news': `/v1/manga/${first(d.news, 'manga news', (n) => n.manga_ids[0])}/news`,
  '/v1/manga/:id/reviews': `/v1/manga/${first(d.reviews, 'manga review', (r) => (r.type === 'manga' ? r.entry_id : undefined))}/reviews?preliminary&spoilers`,
  '/v1/manga/:id/stacks': `/v1/manga/${first(d.stacks, 'manga stack entry', (s) => s.entries.find((e) => e.type === 'manga')?.mal_id)}/stacks`,
  '/v1/manga/:id/articles': `/v1/manga/${first(d.articles, 'manga article', (a) => a.manga_ids[0])}/articles`,
  '/v1/manga/:id/characters': `/v1/manga/${d.mangaCharacters![0]!.manga_id}/characters`,
  '/v1/manga/:id/pictures': `/v1/manga/${first(d.pictures, 'manga pictures', (p) => (p.type === 'manga' ? p.mal_id : undefined))}/pictures`,
  '/v1/manga/:id/statistics': `/v1/manga/${d.mangaStatistics![0]!.manga_id}/statistics`,
  '/v1/manga/:id/moreinfo': `/v1/manga/${first(d.moreinfo, 'manga moreinfo', (m) => (m.type === 'manga' ? m.mal_id : undefined))}/moreinfo`,
  '/v1/manga/:id/external': `/v1/manga/${first(d.external, 'manga links', (e) => (e.type === 'manga' ? e.mal_id : undefined))}/external`,
  '/v1/characters': '/v1/characters',
  '/v1/characters/:id': `/v1/characters/${d.characters![0]!.mal_id}`,
  '/v1/characters/:id/full': `/v1/characters/${d.animeCharacters![0]!.character_id}/full`,
  '/v1/characters/:id/anime': `/v1/characters/${d.animeCharacters![0]!.character_id}/anime`,
  '/v1/characters/:id/manga': `/v1/characters/${d.mangaCharacters![0]!.character_id}/manga`,
  '/v1/characters/:id/voices': `/v1/characters/${first(d.animeCharacters, 'voiced character', (c) => (c.voice_actors.length ? c.character_id : undefined))}/voices`,
  '/v1/characters/:id/pictures': `/v1/characters/${first(d.pictures, 'character pictures', (p) => (p.type === 'character' ? p.mal_id : undefined))}/pictures`,
  '/v1/characters/:id/articles': `/v1/characters/${first(d.articles, 'character article', (a) => a.character_ids[0])}/articles`,
  '/v1/people': '/v1/people',
  '/v1/people/:id': `/v1/people/${d.people![0]!.mal_id}`,
  '/v1/people/:id/full': `/v1/people/${d.animeStaff![0]!.person_id}/full`,
  '/v1/people/:id/anime': `/v1/people/${d.animeStaff![0]!.person_id}/anime`,
  '/v1/people/:id/manga': `/v1/people/${d.mangaStaff![0]!.person_id}/manga`,
  '/v1/people/:id/voices': `/v1/people/${first(d.animeCharacters, 'voice actor', (c) => c.voice_actors[0]?.person_id)}/voices`,
  '/v1/people/:id/pictures': `/v1/people/${first(d.pictures, 'person pictures', (p) => (p.type === 'person' ? p.mal_id : undefined))}/pictures`,
  '/v1/people/:id/articles': `/v1/people/${first(d.articles, 'person article', (a) => a.person_ids[0])}/articles`,
  '/v1/producers': '/v1/producers',
  '/v1/producers/:id': `/v1/producers/${d.producers![0]!.mal_id}`,
  '/v1/producers/:id/full': `/v1/producers/${d.producers![0]!.mal_id}/full`,
  '/v1/producers/:id/external': `/v1/producers/${first(d.external, 'producer links', (e) => (e.type === 'producer' ? e.mal_id : undefined))}/external`,
  '/v1/magazines': '/v1/magazines',
  '/v1/genres/anime': '/v1/genres/anime',
  '/v1/genres/manga': '/v1/genres/manga',
  '/v1/seasons': '/v1/seasons',
  '/v1/seasons/now': '/v1/seasons/now',
  '/v1/seasons/upcoming': '/v1/seasons/upcoming',
  '/v1/seasons/:year/:season': `/v1/seasons/${seasonal.year}/${seasonal.season}`,
  '/v1/schedules': '/v1/schedules',
  '/v1/schedules/:filter': `/v1/schedules/${weekday}`,
  '/v1/top/anime': '/v1/top/anime',
  '/v1/top/manga': '/v1/top/manga',
  '/v1/top/characters': '/v1/top/characters',
  '/v1/top/people': '/v1/top/people',
  '/v1/top/reviews': '/v1/top/reviews',
  '/v1/random/anime': '/v1/random/anime',
  '/v1/random/manga': '/v1/random/manga',
  '/v1/random/characters': '/v1/random/characters',
  '/v1/random/people': '/v1/random/people',
  '/v1/recommendations/anime': '/v1/recommendations/anime',
  '/v1/recommendations/manga': '/v1/recommendations/manga',
  '/v1/reviews/anime': '/v1/reviews/anime',
  '/v1/reviews/manga': '/v1/reviews/manga',
  '/v1/news': '/v1/news',
  '/v1/news/tags': '/v1/news/tags',
  '/v1/news/:id': `/v1/news/${news.mal_id}`,
  '/v1/articles': '/v1/articles',
  '/v1/articles/tags': '/v1/articles/tags',
  '/v1/articles/:id': `/v1/articles/${article.mal_id}`,
  '/v1/stacks': '/v1/stacks',
  '/v1/stacks/:id': `/v1/stacks/${stack.mal_id}`,
};

const unavailable = new Set(unavailableRoutes.map((r) => r.path));
const ROUTES = catalogueRoutes.filter((r) => !unavailable.has(r.path));

describe('response shapes on the demo dataset', () => {
  it('has an example for every served route', () => {
    expect(ROUTES.map((r) => r.path).filter((p) => !(p in EXAMPLES))).toEqual([]);
  });

  it.each(ROUTES.map((r) => [r.path, r] as const))('%s', async (path, route) => {
    const schema = route.response;
    expect(schema, `no response schema for ${path}`).toBeDefined();
    const url = EXAMPLES[path]!;
    const res = await app.fetch(new Request(`http://localhost${url}`));
    const body = (await res.json()) as { data: unknown; total?: number };
    expect(res.status, `${url}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const parsed = schema!.safeParse(body);
    expect(parsed.error?.issues ?? [], url).toEqual([]);
    // Parsing strips keys the schema does not know: equality means the body has none.
    expect(parsed.data).toEqual(body);
    if (Array.isArray(body.data)) expect(body.data.length, `${url} has data`).toBeGreaterThan(0);
    else expect(body.data, `${url} has data`).toBeTruthy();
  });
});
