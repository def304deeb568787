/**
 * The in-memory `CatalogueStore`: the default, for one process and for tests. Everything that does
 * not depend on the request (joins, groupings, orderings, search indexes, SFW classes) is computed
 * once at load, so each request filters and slices prepared lists.
 * @module
 */
import { compareBy, createOrderings, groupBy } from './internal/ordering.js';
import { pageSlice } from './paginate.js';
import { createSearchIndex, MatchTier, type SearchIndex } from './search.js';
import { ANIME_ORDER_KEYS, animeFilter, byPopularity, indexAnime, type IndexedAnime } from './select.js';
import { indexManga, MANGA_ORDER_KEYS, mangaFilter, type IndexedManga } from './select-manga.js';
import { passesSfw, type SfwClass, type SfwMode } from './sfw.js';
import { compareTop, onTopList, topRule, type TopEntry, type TopFilter } from './top-order.js';
import type {
  AiringFilter,
  AnimeSearch,
  Approval,
  CatalogueData,
  CatalogueStore,
  EntryReviewQuery,
  IdsQuery,
  IdsResult,
  MediaKind,
  Page,
  Paging,
  ReviewQuery,
  TopAnimeQuery,
  TopMangaQuery,
} from './store.js';
import type { Anime, AnimeFull } from './schemas/anime.js';
import type { Article, ArticleFull } from './schemas/article.js';
import type { AnimeCharacter } from './schemas/cast.js';
import type { Character } from './schemas/character.js';
import type { AnimeMeta, CharacterMeta, Images, PersonMeta, RelatedEntry } from './schemas/common.js';
import type { Episode, EpisodeDetail } from './schemas/episode.js';
import type { Manga, MangaFull } from './schemas/manga.js';
import type { AnimeStatistics, MangaStatistics, Relation } from './schemas/media.js';
import type { News, NewsFull } from './schemas/news.js';
import type { Person } from './schemas/person.js';
import type { Producer } from './schemas/producer.js';
import type { EntryRecommendation, RecentRecommendation } from './schemas/recommendation.js';
import type { AnimeReview, MangaReview, ReviewWithEntry } from './schemas/review.js';
import type { Stack, StackFull } from './schemas/stack.js';
import type { ArticleRecord, EpisodeRecord, NewsRecord, RecommendationRecord, ReviewRecord, StackRecord } from './schemas/records.js';

const SEASONS = ['winter', 'spring', 'summer', 'fall'] as const;
const KIDS = 15;
const EMPTY_ANIME_STATS: AnimeStatistics = { watching: 0, completed: 0, on_hold: 0, dropped: 0, plan_to_watch: 0, total: 0, scores: [] };
const EMPTY_MANGA_STATS: MangaStatistics = { reading: 0, completed: 0, on_hold: 0, dropped: 0, plan_to_read: 0, total: 0, scores: [] };

const key = (kind: string, id: number) => `${kind}:${id}`;
/** Search fields that narrow a media list beyond SFW and approval. */
const NARROWING = ['q', 'types', 'status', 'ratings', 'score', 'minScore', 'maxScore', 'genres', 'genresExclude', 'producers', 'magazines', 'letter', 'startDate', 'endDate'] as const;
/** How many SFW/approval/order combinations of plain browsing to keep filtered (a few KB each per 1k entries). */
const PLAIN_CACHE_SIZE = 48;

/**
 * A memo of filtered lists for plain browsing (no narrowing filter, the most common request): the
 * filtered, ordered list is built once per combination, so paging it costs a slice.
 */
function createPlainCache<T>(): (name: string, build: () => T[]) => T[] {
  const cache = new Map<string, T[]>();
  return (name, build) => {
    let list = cache.get(name);
    if (!list) {
      list = build();
      if (cache.size >= PLAIN_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(name, list);
    }
    return list;
  };
}
const isPlain = (search: object) => NARROWING.every((k) => (search as Record<string, unknown>)[k] === undefined);
const page = <T>(items: readonly T[], p: Paging): Page<T> => ({ data: pageSlice(items, p.page, p.limit), total: items.length });
/** A page of `items`, converting only the records on it. */
const pageOf = <T, U>(items: readonly T[], p: Paging, to: (e: T) => U): Page<U> => ({
  data: pageSlice(items, p.page, p.limit).map(to),
  total: items.length,
});
const approvalOk = (approved: boolean, approval: Approval) =>
  approval === 'all' || (approval === 'approved' ? approved : !approved);

/** Every title of an anime or manga that search should match. */
function mediaTitles(a: Anime | Manga): string[] {
  const titles = [a.title, ...a.title_synonyms, ...a.titles.map((t) => t.title)];
  if (a.title_english) titles.push(a.title_english);
  if (a.title_japanese) titles.push(a.title_japanese);
  return titles;
}

/**
 * Orders search hits: exact, then prefix, then word-prefix matches (each by the tie-break), then
 * fuzzy hits by closeness.
 */
function rank<T>(index: SearchIndex, items: readonly T[], q: string, tieBreak: (a: T, b: T) => number): T[] {
  return index
    .search(q)
    .sort((x, y) => {
      if (x.tier !== y.tier) return x.tier - y.tier;
      if (x.tier === MatchTier.Fuzzy && x.score !== y.score) return x.score - y.score;
      return tieBreak(items[x.index]!, items[y.index]!);
    })
    .map((hit) => items[hit.index]!);
}

/** A short reference to an anime or manga (`anime_meta` / `manga_meta`). */
const toMeta = (e: Anime | Manga): AnimeMeta => ({ mal_id: e.mal_id, url: e.url, images: e.images, title: e.title });
const toCharacterMeta = (c: Character): CharacterMeta => ({ mal_id: c.mal_id, url: c.url, images: c.images, name: c.name });
const toPersonMeta = (p: Person): PersonMeta => ({ mal_id: p.mal_id, url: p.url, images: p.images, name: p.name });
/** The JPG-only picture shape of characters and people. */
const jpgOnly = (i: Images) => ({ jpg: { image_url: i.jpg.image_url } });

function toEpisode(e: EpisodeRecord): Episode {
  return {
    mal_id: e.mal_id,
    url: e.url,
    title: e.title,
    title_japanese: e.title_japanese,
    title_romanji: e.title_romanji,
    aired: e.aired,
    score: e.score,
    filler: e.filler,
    recap: e.recap,
    forum_url: e.forum_url,
    synopsis: e.synopsis,
    replies: e.replies,
    images: e.images,
  };
}

function toEpisodeDetail(e: EpisodeRecord): EpisodeDetail {
  return {
    mal_id: e.mal_id,
    url: e.url ?? '',
    title: e.title,
    title_japanese: e.title_japanese,
    title_romanji: e.title_romanji,
    duration: e.duration,
    aired: e.aired,
    filler: e.filler,
    recap: e.recap,
    synopsis: e.synopsis,
    replies: e.replies,
    images: e.images,
  };
}

/** The season an anime premiered in: its `season`/`year`, else the quarter of `aired.from` (docs/specification.md: Jikan seasons, schedules, top lists and random picks). */
function premiere(a: Anime): { year: number; season: (typeof SEASONS)[number] } | undefined {
  if (a.season && a.year) return { year: a.year, season: a.season };
  const from = a.aired.from;
  if (!from || a.aired.string === `${from.slice(0, 4)} to ?`) return undefined;
  const month = Number(from.slice(5, 7));
  return { year: Number(from.slice(0, 4)), season: SEASONS[Math.floor((month - 1) / 3)]! };
}

/**
 * Creates a store that holds the records in memory, with joins, orderings and search indexes built
 * once here.
 * @param data - The records; they are not copied, so do not mutate them afterwards.
 * @returns The store.
 * @example
 * ```ts
 * import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
 * import { demoData } from '@catalogue-api/demo-data';
 *
 * const app = createCatalogueApp({ store: createMemoryStore(demoData) });
 * ```
 */
export function createMemoryStore(data: CatalogueData = {}): CatalogueStore {
  // ---- entries ----
  const anime: IndexedAnime[] = [...(data.anime ?? [])].sort((a, b) => a.mal_id - b.mal_id).map(indexAnime);
  const animeById = new Map(anime.map((e) => [e.anime.mal_id, e]));
  // Popular entries first when a short or common query matches more entries than the search keeps.
  const animeIndex = createSearchIndex(anime.map((e) => mediaTitles(e.anime)), {
    order: anime.map((_, i) => i).sort((x, y) => byPopularity(anime[x]!, anime[y]!)),
  });
  const animeSearchOrder = createOrderings(anime, (e) => e.anime.mal_id, ANIME_ORDER_KEYS);
  const plainAnime = createPlainCache<IndexedAnime>();
  const plainManga = createPlainCache<IndexedManga>();
  const manga: IndexedManga[] = [...(data.manga ?? [])].sort((a, b) => a.mal_id - b.mal_id).map(indexManga);
  const mangaById = new Map(manga.map((e) => [e.manga.mal_id, e]));
  const byMangaPopularity = compareBy<IndexedManga>((e) => e.manga.popularity, (e) => e.manga.mal_id, 'asc');
  const mangaIndex = createSearchIndex(manga.map((e) => mediaTitles(e.manga)), {
    order: manga.map((_, i) => i).sort((x, y) => byMangaPopularity(manga[x]!, manga[y]!)),
  });
  const mangaOrder = createOrderings(manga, (e) => e.manga.mal_id, MANGA_ORDER_KEYS);

  // Characters and people: the most favourited first when a short query matches more than the index keeps.
  const byFavorites = <T extends { favorites: number; mal_id: number }>(a: T, b: T) => b.favorites - a.favorites || a.mal_id - b.mal_id;
  const favouritesFirst = (list: readonly { favorites: number; mal_id: number }[]) => list.map((_, i) => i).sort((x, y) => byFavorites(list[x]!, list[y]!));
  const characters = [...(data.characters ?? [])].sort((a, b) => a.mal_id - b.mal_id);
  const characterById = new Map(characters.map((c) => [c.mal_id, c]));
  const characterIndex = createSearchIndex(characters.map((c) => [c.name, c.name_kanji ?? '', ...c.nicknames]), { order: favouritesFirst(characters) });
  const characterOrder = createOrderings(characters, (c) => c.mal_id, {
    mal_id: (c) => c.mal_id,
    name: (c) => c.name.toLowerCase(),
    favorites: (c) => c.favorites,
  });
  const people = [...(data.people ?? [])].sort((a, b) => a.mal_id - b.mal_id);
  const personById = new Map(people.map((p) => [p.mal_id, p]));
  const personIndex = createSearchIndex(
    people.map((p) => [p.name, ...p.alternate_names, [p.given_name, p.family_name].filter(Boolean).join(' ')]),
    { order: favouritesFirst(people) },
  );
  const personOrder = createOrderings(people, (p) => p.mal_id, {
    mal_id: (p) => p.mal_id,
    name: (p) => p.name.toLowerCase(),
    birthday: (p) => p.birthday,
    favorites: (p) => p.favorites,
  });
  const producers = [...(data.producers ?? [])].sort((a, b) => a.mal_id - b.mal_id);
  const producerById = new Map(producers.map((p) => [p.mal_id, p]));
  const producerName = (p: Producer) => (p.titles[0]?.title ?? '').toLowerCase();
  const producerIndex = createSearchIndex(producers.map((p) => p.titles.map((t) => t.title)));
  const producerOrder = createOrderings(producers, (p) => p.mal_id, {
    mal_id: (p) => p.mal_id,
    count: (p) => p.count,
    favorites: (p) => p.favorites,
    established: (p) => p.established,
  });
  const magazines = [...(data.magazines ?? [])].sort((a, b) => a.mal_id - b.mal_id);
  const magazineIndex = createSearchIndex(magazines.map((m) => [m.name]));
  const magazineOrder = createOrderings(magazines, (m) => m.mal_id, {
    mal_id: (m) => m.mal_id,
    name: (m) => m.name.toLowerCase(),
    count: (m) => m.count,
  });

  /** An entry of either kind with its SFW class, or undefined when it does not exist. */
  function media(kind: MediaKind, id: number): { entry: Anime | Manga; sfw: SfwClass } | undefined {
    if (kind === 'anime') {
      const e = animeById.get(id);
      return e && { entry: e.anime, sfw: e.sfw };
    }
    const e = mangaById.get(id);
    return e && { entry: e.manga, sfw: e.sfw };
  }
  const related = (kind: MediaKind, e: Anime | Manga): RelatedEntry => ({
    mal_id: e.mal_id,
    type: kind,
    name: e.title,
    url: e.url,
    images: e.images,
    media_type: e.type,
  });

  // ---- joins ----
  const castByAnime = groupBy(data.animeCharacters ?? [], (r) => r.anime_id);
  const castByCharacter = groupBy(data.animeCharacters ?? [], (r) => r.character_id);
  const voicesByPerson = new Map<number, { anime_id: number; character_id: number; role: string }[]>();
  for (const row of data.animeCharacters ?? []) {
    for (const va of row.voice_actors) {
      const list = voicesByPerson.get(va.person_id) ?? [];
      list.push({ anime_id: row.anime_id, character_id: row.character_id, role: row.role });
      voicesByPerson.set(va.person_id, list);
    }
  }
  const mangaCastByManga = groupBy(data.mangaCharacters ?? [], (r) => r.manga_id);
  const mangaCastByCharacter = groupBy(data.mangaCharacters ?? [], (r) => r.character_id);
  const staffByAnime = groupBy(data.animeStaff ?? [], (r) => r.anime_id);
  const staffByPerson = groupBy(data.animeStaff ?? [], (r) => r.person_id);
  const mangaStaffByPerson = groupBy(data.mangaStaff ?? [], (r) => r.person_id);
  const relationsFrom = groupBy(data.relations ?? [], (r) => key(r.from_type, r.from_id));
  const externalOf = new Map((data.external ?? []).map((r) => [key(r.type, r.mal_id), r.links]));
  const streamingOf = new Map((data.streaming ?? []).map((r) => [r.anime_id, r.links]));
  const themesOf = new Map((data.themes ?? []).map((r) => [r.anime_id, { openings: r.openings, endings: r.endings }]));
  const episodesOf = groupBy(
    [...(data.episodes ?? [])].sort((a, b) => a.anime_id - b.anime_id || a.mal_id - b.mal_id),
    (e) => e.anime_id,
  );
  const videosOf = new Map((data.videos ?? []).map((v) => [v.anime_id, v]));
  const picturesOf = new Map((data.pictures ?? []).map((p) => [key(p.type, p.mal_id), p.pictures]));
  const animeStatsOf = new Map((data.animeStatistics ?? []).map((s) => [s.anime_id, s]));
  const mangaStatsOf = new Map((data.mangaStatistics ?? []).map((s) => [s.manga_id, s]));
  const moreinfoOf = new Map((data.moreinfo ?? []).map((m) => [key(m.type, m.mal_id), m.moreinfo]));
  const forumOf = groupBy(
    [...(data.forum ?? [])].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : a.mal_id - b.mal_id)),
    (f) => f.anime_id,
  );
  const updatedAt = new Map((data.updates ?? []).map((u) => [key(u.type, u.mal_id), Date.parse(u.updated_at)]));

  // ---- community ----
  const newestFirst = <T extends { date: string; mal_id: number }>(a: T, b: T) =>
    a.date < b.date ? 1 : a.date > b.date ? -1 : a.mal_id - b.mal_id;
  const news = [...(data.news ?? [])].sort(newestFirst);
  const newsById = new Map(news.map((n) => [n.mal_id, n]));
  const newsIndex = createSearchIndex(news.map((n) => [n.title]));
  const newsTags = new Map((data.newsTags ?? []).map((t) => [t.mal_id, t]));
  const newsByEntry = new Map<string, NewsRecord[]>();
  for (const n of news) {
    for (const id of n.anime_ids) push(newsByEntry, key('anime', id), n);
    for (const id of n.manga_ids) push(newsByEntry, key('manga', id), n);
  }
  const articles = [...(data.articles ?? [])].sort(newestFirst);
  const articleById = new Map(articles.map((a) => [a.mal_id, a]));
  const articleIndex = createSearchIndex(articles.map((a) => [a.title]));
  const articleTags = new Map((data.articleTags ?? []).map((t) => [t.mal_id, t]));
  const articlesByRef = new Map<string, ArticleRecord[]>();
  for (const a of articles) {
    for (const id of a.anime_ids) push(articlesByRef, key('anime', id), a);
    for (const id of a.manga_ids) push(articlesByRef, key('manga', id), a);
    for (const id of a.character_ids) push(articlesByRef, key('character', id), a);
    for (const id of a.person_ids) push(articlesByRef, key('person', id), a);
  }
  const stacks = [...(data.stacks ?? [])].sort((a, b) =>
    a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.mal_id - b.mal_id,
  );
  const stackById = new Map(stacks.map((s) => [s.mal_id, s]));
  const stackIndex = createSearchIndex(stacks.map((s) => [s.title]));
  const stacksByEntry = new Map<string, StackRecord[]>();
  for (const s of stacks) {
    for (const k of new Set(s.entries.map((e) => key(e.type, e.mal_id)))) push(stacksByEntry, k, s);
  }
  const recommendations = [...(data.recommendations ?? [])].sort((a, b) =>
    a.date < b.date ? 1 : a.date > b.date ? -1 : a.entry_ids[0] - b.entry_ids[0] || a.entry_ids[1] - b.entry_ids[1],
  );
  const recsByEntry = new Map<string, RecommendationRecord[]>();
  for (const r of recommendations) {
    push(recsByEntry, key(r.type, r.entry_ids[0]), r);
    push(recsByEntry, key(r.type, r.entry_ids[1]), r);
  }
  const reviews = data.reviews ?? [];
  const reviewOrders = {
    mostVoted: [...reviews].sort((a, b) => b.reactions.overall - a.reactions.overall || a.mal_id - b.mal_id),
    newest: [...reviews].sort(newestFirst),
    oldest: [...reviews].sort((a, b) => -newestFirst(a, b)),
  };
  const byEntry = (list: readonly ReviewRecord[]) => groupBy(list, (r) => key(r.type, r.entry_id));
  /** Each entry's reviews in each order, so an entry's review page is a filter and a slice. */
  const entryReviewOrders = {
    mostVoted: byEntry(reviewOrders.mostVoted),
    newest: byEntry(reviewOrders.newest),
    oldest: byEntry(reviewOrders.oldest),
  };

  // ---- seasons and genres ----
  const seasonLists = new Map<string, IndexedAnime[]>();
  const years = new Map<number, Set<string>>();
  const byMembersDesc = compareBy<IndexedAnime>((e) => e.anime.members, (e) => e.anime.mal_id, 'desc');
  for (const e of anime) {
    const p = premiere(e.anime);
    if (!p) continue;
    push(seasonLists, `${p.year}-${p.season}`, e);
    const set = years.get(p.year) ?? new Set<string>();
    set.add(p.season);
    years.set(p.year, set);
  }
  for (const list of seasonLists.values()) list.sort(byMembersDesc);
  const upcoming = anime.filter((e) => e.anime.status === 'Not yet aired').sort(byMembersDesc);
  const airingTv = anime
    .filter((e) => e.anime.type === 'TV' && e.anime.status === 'Currently Airing')
    .sort(compareBy((e) => e.anime.members, (e) => e.anime.mal_id, 'asc'));
  // Each top list's whole ordering (TOP_ORDER), sorted once on first use.
  const topOrders = new Map<string, readonly unknown[]>();
  const topOrdering = <T>(name: string, list: readonly T[], record: (e: T) => TopEntry, filter: Exclude<TopFilter, 'none'> | undefined) => {
    let ordered = topOrders.get(`${name}:${filter}`) as readonly T[] | undefined;
    if (!ordered) {
      const compare = compareTop(topRule(filter));
      ordered = [...list].sort((a, b) => compare(record(a), record(b)));
      topOrders.set(`${name}:${filter}`, ordered);
    }
    return ordered;
  };
  const topAnime = (filter: TopAnimeQuery['filter']) => topOrdering('anime', anime, (e) => e.anime, filter);
  const topManga = (filter: TopMangaQuery['filter']) => topOrdering('manga', manga, (e) => e.manga, filter);

  // Numeric keys per kind: a `kind:id` string per tag of 100k entries cost ~140 ms CPU at load.
  const genreCounts = { anime: new Map<number, number>(), manga: new Map<number, number>() };
  for (const [counts, list] of [[genreCounts.anime, anime], [genreCounts.manga, manga]] as const) {
    for (const e of list) for (const id of e.tags) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const categoryOrder = ['genres', 'explicit_genres', 'themes', 'demographics'];
  const genres = [...(data.genres ?? [])].sort(
    (a, b) => categoryOrder.indexOf(a.category) - categoryOrder.indexOf(b.category) || a.mal_id - b.mal_id,
  );

  // ---- helpers over the joins ----
  function push<K, V>(map: Map<K, V[]>, k: K, v: V): void {
    const list = map.get(k);
    if (list) list.push(v);
    else map.set(k, [v]);
  }

  function relationsOf(kind: MediaKind, id: number, sfw: SfwMode): Relation[] {
    const groups = new Map<string, RelatedEntry[]>();
    for (const r of relationsFrom.get(key(kind, id)) ?? []) {
      const target = media(r.to_type, r.to_id);
      const list = groups.get(r.relation) ?? [];
      groups.set(r.relation, list);
      if (target && passesSfw(target.sfw, sfw)) list.push(related(r.to_type, target.entry));
    }
    return [...groups].filter(([, entry]) => entry.length > 0).map(([relation, entry]) => ({ relation, entry }));
  }

  function recommendationsOf(kind: MediaKind, id: number, sfw: SfwMode): EntryRecommendation[] {
    const votes = new Map<number, number>();
    for (const r of recsByEntry.get(key(kind, id)) ?? []) {
      const other = r.entry_ids[0] === id ? r.entry_ids[1] : r.entry_ids[0];
      votes.set(other, (votes.get(other) ?? 0) + 1);
    }
    const out: EntryRecommendation[] = [];
    for (const [other, count] of [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0])) {
      const target = media(kind, other);
      if (!target || !passesSfw(target.sfw, sfw)) continue;
      const [lo, hi] = id < other ? [id, other] : [other, id];
      out.push({ entry: toMeta(target.entry), url: `https://myanimelist.net/recommendations/${kind}/${lo}-${hi}`, votes: count });
    }
    return out;
  }

  function toNews(n: NewsRecord): News {
    return {
      mal_id: n.mal_id,
      url: n.url,
      title: n.title,
      date: n.date,
      author_username: n.author_username,
      author_url: n.author_url,
      forum_url: n.forum_url,
      images: n.images,
      comments: n.comments,
      excerpt: n.excerpt,
    };
  }

  /** News about an entry; with SFW, items that also concern a filtered entry go (the root never counts). */
  function entryNews(kind: MediaKind, id: number, sfw: SfwMode): News[] {
    const shown = (k: MediaKind, other: number) => (k === kind && other === id) || passesSfw(media(k, other)?.sfw ?? 0, sfw);
    return (newsByEntry.get(key(kind, id)) ?? [])
      .filter((n) => sfw === 'off' || (n.anime_ids.every((x) => shown('anime', x)) && n.manga_ids.every((x) => shown('manga', x))))
      .map(toNews);
  }

  function toArticle(a: ArticleRecord): Article {
    return {
      mal_id: a.mal_id,
      url: a.url,
      title: a.title,
      date: a.date,
      author_username: a.author_username,
      author_url: a.author_url,
      images: a.images,
      excerpt: a.excerpt,
      views: a.views,
      comments: a.comments,
      tags: a.tag_ids.flatMap((id) => {
        const t = articleTags.get(id);
        return t ? [{ mal_id: t.mal_id, name: t.name, url: t.url }] : [];
      }),
    };
  }

  function toStack(s: StackRecord): Stack {
    return {
      mal_id: s.mal_id,
      url: s.url,
      title: s.title,
      description: s.description,
      type: s.type,
      user: s.user,
      images: s.images,
      entries_count: s.entries.length,
      restacks: s.restacks,
      created_at: s.created_at,
    };
  }

  function relatedLists(animeIds: readonly number[], mangaIds: readonly number[], sfw: SfwMode) {
    const pick = (kind: MediaKind, ids: readonly number[]) =>
      ids.flatMap((id) => {
        const m = media(kind, id);
        return m && passesSfw(m.sfw, sfw) ? [related(kind, m.entry)] : [];
      });
    return { anime: pick('anime', animeIds), manga: pick('manga', mangaIds) };
  }

  /** The fields every review has, in Jikan's order (`user` first). */
  const reviewBase = (r: ReviewRecord) => ({
    user: r.user,
    mal_id: r.mal_id,
    url: r.url,
    reactions: r.reactions,
    date: r.date,
    review: r.review,
    score: r.score,
    tags: r.tags,
    is_spoiler: r.is_spoiler,
    is_preliminary: r.is_preliminary,
  });
  /** An anime review as its entry's own list shows it (no `entry`). */
  const toAnimeReview = (r: ReviewRecord): AnimeReview => ({ ...reviewBase(r), type: 'anime', episodes_watched: r.progress });
  /** A manga review as its entry's own list shows it (no `entry`). */
  const toMangaReview = (r: ReviewRecord): MangaReview => ({ ...reviewBase(r), type: 'manga', chapters_read: r.progress });

  function toReview(r: ReviewRecord): ReviewWithEntry | undefined {
    const m = media(r.type, r.entry_id);
    if (!m) return undefined;
    const entry = toMeta(m.entry);
    return r.type === 'anime' ? { ...toAnimeReview(r), entry } : { ...toMangaReview(r), entry };
  }

  /** One entry's reviews in the requested order, or `undefined` when the entry does not exist. */
  function entryReviews(kind: MediaKind, id: number, q: EntryReviewQuery): Page<ReviewRecord> | undefined {
    if (!media(kind, id)) return undefined;
    const matches = (entryReviewOrders[q.sort].get(key(kind, id)) ?? []).filter(
      (r) => (q.preliminary || !r.is_preliminary) && (q.spoilers || !r.is_spoiler),
    );
    return { data: pageSlice(matches, q.page, q.limit), total: matches.length };
  }

  function reviewPage(q: ReviewQuery, order: readonly ReviewRecord[]): Page<ReviewWithEntry> {
    const matches = order.filter((r) => {
      if (r.type !== q.type) return false;
      if (!q.preliminary && r.is_preliminary) return false;
      if (!q.spoilers && r.is_spoiler) return false;
      const m = media(r.type, r.entry_id);
      return m !== undefined && passesSfw(m.sfw, q.sfw);
    });
    return { data: pageSlice(matches, q.page, q.limit).map((r) => toReview(r)!), total: matches.length };
  }

  function animeCast(id: number): AnimeCharacter[] {
    const out: AnimeCharacter[] = [];
    for (const row of castByAnime.get(id) ?? []) {
      const c = characterById.get(row.character_id);
      if (!c) continue;
      out.push({
        character: toCharacterMeta(c),
        role: row.role,
        favorites: c.favorites,
        voice_actors: row.voice_actors.flatMap((va) => {
          const p = personById.get(va.person_id);
          return p ? [{ person: { ...toPersonMeta(p), favorites: p.favorites }, language: va.language }] : [];
        }),
      });
    }
    // Main roles first, then the most favorited (MAL's order).
    return out.sort((a, b) => Number(b.role === 'Main') - Number(a.role === 'Main') || b.favorites - a.favorites);
  }

  function characterAnime(id: number, sfw: SfwMode) {
    return (castByCharacter.get(id) ?? []).flatMap((row) => {
      const a = animeById.get(row.anime_id);
      return a && passesSfw(a.sfw, sfw) ? [{ role: row.role, anime: toMeta(a.anime) }] : [];
    });
  }
  function characterManga(id: number, sfw: SfwMode) {
    return (mangaCastByCharacter.get(id) ?? []).flatMap((row) => {
      const m = mangaById.get(row.manga_id);
      return m && passesSfw(m.sfw, sfw) ? [{ role: row.role, manga: toMeta(m.manga) }] : [];
    });
  }
  function characterVoices(id: number) {
    const seen = new Set<string>();
    const out: { language: string; person: PersonMeta }[] = [];
    for (const row of castByCharacter.get(id) ?? []) {
      for (const va of row.voice_actors) {
        const p = personById.get(va.person_id);
        const k = `${va.person_id}:${va.language}`;
        if (!p || seen.has(k)) continue;
        seen.add(k);
        out.push({ language: va.language, person: toPersonMeta(p) });
      }
    }
    return out;
  }
  function personAnime(id: number, sfw: SfwMode) {
    return (staffByPerson.get(id) ?? []).flatMap((row) => {
      const a = animeById.get(row.anime_id);
      if (!a || !passesSfw(a.sfw, sfw)) return [];
      return row.positions.map((position) => ({ position, anime: toMeta(a.anime) }));
    });
  }
  function personManga(id: number, sfw: SfwMode) {
    return (mangaStaffByPerson.get(id) ?? []).flatMap((row) => {
      const m = mangaById.get(row.manga_id);
      return m && passesSfw(m.sfw, sfw) ? [{ position: row.position, manga: toMeta(m.manga) }] : [];
    });
  }
  function personVoices(id: number, sfw: SfwMode) {
    return (voicesByPerson.get(id) ?? []).flatMap((row) => {
      const a = animeById.get(row.anime_id);
      const c = characterById.get(row.character_id);
      if (!a || !c || !passesSfw(a.sfw, sfw)) return [];
      return [{ role: row.role, anime: toMeta(a.anime), character: toCharacterMeta(c) }];
    });
  }

  /** Named-record search: relevance with `q`, else the ordering, then letter filter and paging. */
  function named<T extends { mal_id: number }, O extends string>(
    items: readonly T[],
    index: SearchIndex,
    order: (k: O, sort: 'asc' | 'desc') => readonly T[],
    name: (e: T) => string,
    tieBreak: (a: T, b: T) => number,
    s: { q?: string | undefined; orderBy?: O | undefined; sort: 'asc' | 'desc'; letter?: string | undefined } & Paging,
  ): Page<T> {
    let pool: readonly T[] = items;
    if (s.q !== undefined) {
      pool = rank(index, items, s.q, tieBreak);
      if (s.orderBy) {
        const sorted = order(s.orderBy, s.sort);
        const hits = new Set(pool);
        pool = sorted.filter((e) => hits.has(e));
      }
    } else if (s.orderBy) pool = order(s.orderBy, s.sort);
    const letter = s.letter?.toLowerCase();
    const matches = letter ? pool.filter((e) => name(e).toLowerCase().startsWith(letter)) : pool;
    return page(matches, s);
  }


  function airingFilter(f: AiringFilter): (e: IndexedAnime) => boolean {
    return (e) =>
      approvalOk(e.anime.approved, f.approval) &&
      passesSfw(e.sfw, f.sfw) &&
      (f.kids === undefined || e.tags.includes(KIDS) === f.kids) &&
      (!f.types || f.types.includes(e.anime.type));
  }

  function ids<T extends { mal_id: number; type: string | null; status: string }>(
    kind: MediaKind,
    items: readonly { record: T; sfw: SfwClass; rating: string | null }[],
    q: IdsQuery,
  ): IdsResult {
    const matches = items.filter(({ record, sfw, rating }) => {
      if (q.types && (record.type === null || !q.types.includes(record.type))) return false;
      if (q.status && record.status !== q.status) return false;
      if (q.ratings && (rating === null || !q.ratings.includes(rating))) return false;
      if (!passesSfw(sfw, q.sfw)) return false;
      if (q.updatedSince !== undefined && (updatedAt.get(key(kind, record.mal_id)) ?? 0) < q.updatedSince) return false;
      return true;
    });
    const include = q.include;
    const data = include
      ? matches.map(({ record }) => {
          const out: { mal_id: number } & Record<string, unknown> = { mal_id: record.mal_id };
          for (const field of include) out[field] = (record as Record<string, unknown>)[field];
          return out;
        })
      : matches.map(({ record }) => record.mal_id);
    return { total: data.length, data };
  }
  const animeIdsPool = anime.map((e) => ({ record: e.anime, sfw: e.sfw, rating: e.anime.rating }));
  const mangaIdsPool = manga.map((e) => ({ record: e.manga, sfw: e.sfw, rating: null }));

  return {
    // ---- anime ----
    async getAnime(id) {
      return animeById.get(id)?.anime;
    },

    async searchAnime(search: AnimeSearch): Promise<Page<Anime>> {
      const ordered = () => (search.orderBy ? animeSearchOrder(search.orderBy, search.sort) : anime);
      let matches: readonly IndexedAnime[];
      if (isPlain(search)) {
        const name = `${search.orderBy ?? ''}:${search.sort}:${search.sfw}:${search.approval}`;
        matches = plainAnime(name, () => ordered().filter(animeFilter(search)));
      } else {
        let pool: readonly IndexedAnime[] = ordered();
        if (search.q !== undefined) {
          const hits = rank(animeIndex, anime, search.q, byPopularity);
          if (search.orderBy) {
            const set = new Set(hits);
            pool = pool.filter((e) => set.has(e));
          } else pool = hits;
        }
        matches = pool.filter(animeFilter(search));
      }
      return { data: pageSlice(matches, search.page, search.limit).map((e) => e.anime), total: matches.length };
    },

    async getAnimeFull(id, sfw) {
      const a = animeById.get(id)?.anime;
      if (!a) return undefined;
      const full: AnimeFull = {
        ...a,
        relations: relationsOf('anime', id, sfw),
        theme: themesOf.get(id) ?? { openings: [], endings: [] },
        external: externalOf.get(key('anime', id)) ?? [],
        streaming: streamingOf.get(id) ?? [],
        moreinfo: moreinfoOf.get(key('anime', id)) ?? null,
      };
      return full;
    },
    async getAnimeRelations(id, sfw) {
      return animeById.has(id) ? relationsOf('anime', id, sfw) : undefined;
    },
    async getAnimeRecommendations(id, sfw) {
      return animeById.has(id) ? recommendationsOf('anime', id, sfw) : undefined;
    },
    async getAnimeNews(id, paging, sfw) {
      return animeById.has(id) ? page(entryNews('anime', id, sfw), paging) : undefined;
    },
    async getAnimeReviews(id, q) {
      const p = entryReviews('anime', id, q);
      return p && { data: p.data.map(toAnimeReview), total: p.total };
    },
    async getAnimeVideos(id) {
      if (!animeById.has(id)) return undefined;
      const v = videosOf.get(id);
      return { promo: v?.promo ?? [], episodes: v?.episodes ?? [], music_videos: v?.music_videos ?? [] };
    },
    async getAnimeVideoEpisodes(id, paging) {
      return animeById.has(id) ? page(videosOf.get(id)?.episodes ?? [], paging) : undefined;
    },
    async getAnimeCharacters(id) {
      return animeById.has(id) ? animeCast(id) : undefined;
    },
    async getAnimeStaff(id) {
      if (!animeById.has(id)) return undefined;
      return (staffByAnime.get(id) ?? []).flatMap((row) => {
        const p = personById.get(row.person_id);
        return p ? [{ person: toPersonMeta(p), positions: row.positions }] : [];
      });
    },
    async getAnimeEpisodes(id, paging) {
      return animeById.has(id) ? pageOf(episodesOf.get(id) ?? [], paging, toEpisode) : undefined;
    },
    async getAnimeEpisode(id, episode) {
      const e = (episodesOf.get(id) ?? []).find((x) => x.mal_id === episode);
      return e && toEpisodeDetail(e);
    },
    async getAnimeForum(id) {
      if (!animeById.has(id)) return undefined;
      return (forumOf.get(id) ?? []).map((f) => ({
        mal_id: f.mal_id,
        url: f.url,
        title: f.title,
        date: f.date,
        author_username: f.author_username,
        author_url: f.author_url,
        comments: f.comments,
        last_comment: f.last_comment,
      }));
    },
    async getAnimeStacks(id, paging) {
      return animeById.has(id) ? pageOf(stacksByEntry.get(key('anime', id)) ?? [], paging, toStack) : undefined;
    },
    async getAnimeArticles(id, paging) {
      return animeById.has(id) ? pageOf(articlesByRef.get(key('anime', id)) ?? [], paging, toArticle) : undefined;
    },
    async getAnimePictures(id) {
      return animeById.has(id) ? (picturesOf.get(key('anime', id)) ?? []) : undefined;
    },
    async getAnimeStatistics(id) {
      if (!animeById.has(id)) return undefined;
      const s = animeStatsOf.get(id);
      if (!s) return EMPTY_ANIME_STATS;
      const { watching, completed, on_hold, dropped, plan_to_watch, total, scores } = s;
      return { watching, completed, on_hold, dropped, plan_to_watch, total, scores };
    },
    async getAnimeMoreinfo(id) {
      return animeById.has(id) ? { moreinfo: moreinfoOf.get(key('anime', id)) ?? null } : undefined;
    },
    async getAnimeThemes(id) {
      return animeById.has(id) ? (themesOf.get(id) ?? { openings: [], endings: [] }) : undefined;
    },
    async getAnimeExternal(id) {
      return animeById.has(id) ? (externalOf.get(key('anime', id)) ?? []) : undefined;
    },
    async getAnimeStreaming(id) {
      return animeById.has(id) ? (streamingOf.get(id) ?? []) : undefined;
    },
    async getDeletedAnimeIds() {
      return [...(data.deletedAnimeIds ?? [])].sort((a, b) => a - b);
    },
    async listAnimeIds(q) {
      return ids('anime', animeIdsPool, q);
    },

    // ---- manga ----
    async getManga(id) {
      return mangaById.get(id)?.manga;
    },
    async searchManga(search) {
      if (isPlain(search)) {
        const name = `${search.orderBy ?? ''}:${search.sort}:${search.sfw}:${search.approval}`;
        const list = plainManga(name, () => (search.orderBy ? mangaOrder(search.orderBy, search.sort) : manga).filter(mangaFilter(search)));
        return { data: pageSlice(list, search.page, search.limit).map((e) => e.manga), total: list.length };
      }
      let pool: readonly IndexedManga[];
      if (search.q !== undefined) {
        pool = rank(mangaIndex, manga, search.q, byMangaPopularity);
        if (search.orderBy) {
          const hits = new Set(pool);
          pool = mangaOrder(search.orderBy, search.sort).filter((e) => hits.has(e));
        }
      } else pool = search.orderBy ? mangaOrder(search.orderBy, search.sort) : manga;
      const matches = pool.filter(mangaFilter(search));
      return { data: pageSlice(matches, search.page, search.limit).map((e) => e.manga), total: matches.length };
    },
    async getMangaFull(id, sfw) {
      const m = mangaById.get(id)?.manga;
      if (!m) return undefined;
      const full: MangaFull = { ...m, relations: relationsOf('manga', id, sfw), external: externalOf.get(key('manga', id)) ?? [] };
      return full;
    },
    async getMangaRelations(id, sfw) {
      return mangaById.has(id) ? relationsOf('manga', id, sfw) : undefined;
    },
    async getMangaRecommendations(id, sfw) {
      return mangaById.has(id) ? recommendationsOf('manga', id, sfw) : undefined;
    },
    async getMangaNews(id, paging, sfw) {
      return mangaById.has(id) ? page(entryNews('manga', id, sfw), paging) : undefined;
    },
    async getMangaReviews(id, q) {
      const p = entryReviews('manga', id, q);
      return p && { data: p.data.map(toMangaReview), total: p.total };
    },
    async getMangaStacks(id, paging) {
      return mangaById.has(id) ? pageOf(stacksByEntry.get(key('manga', id)) ?? [], paging, toStack) : undefined;
    },
    async getMangaArticles(id, paging) {
      return mangaById.has(id) ? pageOf(articlesByRef.get(key('manga', id)) ?? [], paging, toArticle) : undefined;
    },
    async getMangaCharacters(id) {
      if (!mangaById.has(id)) return undefined;
      return (mangaCastByManga.get(id) ?? []).flatMap((row) => {
        const c = characterById.get(row.character_id);
        return c ? [{ character: toCharacterMeta(c), role: row.role }] : [];
      });
    },
    async getMangaPictures(id) {
      return mangaById.has(id) ? (picturesOf.get(key('manga', id)) ?? []) : undefined;
    },
    async getMangaStatistics(id) {
      if (!mangaById.has(id)) return undefined;
      const s = mangaStatsOf.get(id);
      if (!s) return EMPTY_MANGA_STATS;
      const { reading, completed, on_hold, dropped, plan_to_read, total, scores } = s;
      return { reading, completed, on_hold, dropped, plan_to_read, total, scores };
    },
    async getMangaMoreinfo(id) {
      return mangaById.has(id) ? { moreinfo: moreinfoOf.get(key('manga', id)) ?? null } : undefined;
    },
    async getMangaExternal(id) {
      return mangaById.has(id) ? (externalOf.get(key('manga', id)) ?? []) : undefined;
    },
    async getDeletedMangaIds() {
      return [...(data.deletedMangaIds ?? [])].sort((a, b) => a - b);
    },
    async listMangaIds(q) {
      return ids('manga', mangaIdsPool, q);
    },

    // ---- characters and people ----
    async getCharacter(id) {
      return characterById.get(id);
    },
    async searchCharacters(s) {
      return named(characters, characterIndex, characterOrder, (c) => c.name, byFavorites, s);
    },
    async getCharacterFull(id, sfw) {
      const c = characterById.get(id);
      if (!c) return undefined;
      return { ...c, anime: characterAnime(id, sfw), manga: characterManga(id, sfw), voices: characterVoices(id) };
    },
    async getCharacterAnime(id, sfw) {
      return characterById.has(id) ? characterAnime(id, sfw) : undefined;
    },
    async getCharacterManga(id, sfw) {
      return characterById.has(id) ? characterManga(id, sfw) : undefined;
    },
    async getCharacterVoices(id) {
      return characterById.has(id) ? characterVoices(id) : undefined;
    },
    async getCharacterPictures(id) {
      return characterById.has(id) ? (picturesOf.get(key('character', id)) ?? []).map(jpgOnly) : undefined;
    },
    async getCharacterArticles(id, paging) {
      return characterById.has(id) ? pageOf(articlesByRef.get(key('character', id)) ?? [], paging, toArticle) : undefined;
    },
    async getPerson(id) {
      return personById.get(id);
    },
    async searchPeople(s) {
      return named(people, personIndex, personOrder, (p) => p.name, byFavorites, s);
    },
    async getPersonFull(id, sfw) {
      const p = personById.get(id);
      if (!p) return undefined;
      return { ...p, anime: personAnime(id, sfw), manga: personManga(id, sfw), voices: personVoices(id, sfw) };
    },
    async getPersonAnime(id, sfw) {
      return personById.has(id) ? personAnime(id, sfw) : undefined;
    },
    async getPersonManga(id, sfw) {
      return personById.has(id) ? personManga(id, sfw) : undefined;
    },
    async getPersonVoices(id, sfw) {
      return personById.has(id) ? personVoices(id, sfw) : undefined;
    },
    async getPersonPictures(id) {
      return personById.has(id) ? (picturesOf.get(key('person', id)) ?? []).map(jpgOnly) : undefined;
    },
    async getPersonArticles(id, paging) {
      return personById.has(id) ? pageOf(articlesByRef.get(key('person', id)) ?? [], paging, toArticle) : undefined;
    },

    // ---- producers, magazines, genres ----
    async getProducer(id) {
      return producerById.get(id);
    },
    async searchProducers(s) {
      return named(producers, producerIndex, producerOrder, producerName, byFavorites, s);
    },
    async getProducerFull(id) {
      const p = producerById.get(id);
      return p && { ...p, external: externalOf.get(key('producer', id)) ?? [] };
    },
    async getProducerExternal(id) {
      return producerById.has(id) ? (externalOf.get(key('producer', id)) ?? []) : undefined;
    },
    async searchMagazines(s) {
      return named(magazines, magazineIndex, magazineOrder, (m) => m.name, (a, b) => b.count - a.count || a.mal_id - b.mal_id, s);
    },
    async listGenres(kind, category) {
      return genres
        .filter((g) => g.kind === kind && (!category || g.category === category))
        .map((g) => ({ mal_id: g.mal_id, name: g.name, url: g.url, count: genreCounts[kind].get(g.mal_id) ?? 0 }));
    },

    // ---- seasons, schedules, top, random ----
    async listSeasons() {
      return [...years]
        .sort((a, b) => b[0] - a[0])
        .map(([year, set]) => ({ year, seasons: SEASONS.filter((s) => set.has(s)) }));
    },
    async getSeason(q) {
      const keep = airingFilter(q);
      let list = (seasonLists.get(`${q.year}-${q.season}`) ?? []).filter(keep);
      if (q.continuing) {
        // Long-running shows still airing that began before this season (docs/specification.md: Jikan seasons, schedules, top lists and random picks: `continuing`).
        const start = `${q.year}-${String(SEASONS.indexOf(q.season) * 3 + 1).padStart(2, '0')}-01`;
        const inSeason = new Set(list);
        const extra = anime.filter(
          (e) =>
            !inSeason.has(e) &&
            e.anime.airing &&
            e.anime.aired.from !== null &&
            e.anime.aired.from.slice(0, 10) < start &&
            (e.anime.aired.to === null || e.anime.aired.to.slice(0, 10) >= start) &&
            keep(e),
        );
        list = [...list, ...extra].sort(byMembersDesc);
      }
      return pageOf(list, q, (e) => e.anime);
    },
    async getSeasonUpcoming(q) {
      return pageOf(upcoming.filter(airingFilter(q)), q, (e) => e.anime);
    },
    async getSchedules(q) {
      const keep = airingFilter(q);
      const day = q.day;
      const list = airingTv.filter((e) => {
        if (!keep(e)) return false;
        const b = e.anime.broadcast;
        if (!day) return true;
        if (day === 'other') return b.string === 'Not scheduled once per week';
        if (day === 'unknown') return b.day === null && b.string !== 'Not scheduled once per week';
        return b.day?.toLowerCase().startsWith(day) ?? false;
      });
      return pageOf(list, q, (e) => e.anime);
    },
    async getTopAnime(q) {
      const rule = topRule(q.filter);
      const name = `top:${q.filter}:${q.sfw}:${q.types?.join(',')}:${q.ratings?.join(',')}`;
      const list = plainAnime(name, () =>
        topAnime(q.filter).filter(
          (e) =>
            passesSfw(e.sfw, q.sfw) &&
            onTopList(rule, e.anime) &&
            (!q.types || q.types.includes(e.anime.type)) &&
            (!q.ratings || (e.anime.rating !== null && q.ratings.includes(e.anime.rating))),
        ),
      );
      return pageOf(list, q, (e) => e.anime);
    },
    async getTopManga(q) {
      const rule = topRule(q.filter);
      const name = `top:${q.filter}:${q.sfw}:${q.types?.join(',')}`;
      const list = plainManga(name, () =>
        topManga(q.filter).filter(
          (e) => passesSfw(e.sfw, q.sfw) && onTopList(rule, e.manga) && (!q.types || (e.manga.type !== null && q.types.includes(e.manga.type))),
        ),
      );
      return pageOf(list, q, (e) => e.manga);
    },
    async getTopCharacters(paging) {
      return page(characterOrder('favorites', 'desc').filter((c) => c.favorites > 0), paging);
    },
    async getTopPeople(paging) {
      return page(personOrder('favorites', 'desc').filter((p) => p.favorites > 0), paging);
    },
    async getRandomAnime(q) {
      const pool = plainAnime(`random:${q.sfw}:${q.approval}`, () =>
        anime.filter((e) => passesSfw(e.sfw, q.sfw) && approvalOk(e.anime.approved, q.approval)),
      );
      return pool[Math.floor(q.pick * pool.length)]?.anime;
    },
    async getRandomManga(q) {
      const pool = plainManga(`random:${q.sfw}:${q.approval}`, () =>
        manga.filter((e) => passesSfw(e.sfw, q.sfw) && approvalOk(e.manga.approved, q.approval)),
      );
      return pool[Math.floor(q.pick * pool.length)]?.manga;
    },
    async getRandomCharacter(pick) {
      return characters[Math.floor(pick * characters.length)];
    },
    async getRandomPerson(pick) {
      return people[Math.floor(pick * people.length)];
    },

    // ---- community ----
    async getRecentRecommendations(q) {
      const out: RecentRecommendation[] = [];
      for (const r of recommendations) {
        if (r.type !== q.type) continue;
        const a = media(r.type, r.entry_ids[0]);
        const b = media(r.type, r.entry_ids[1]);
        if (!a || !b || !passesSfw(a.sfw, q.sfw) || !passesSfw(b.sfw, q.sfw)) continue;
        out.push({
          mal_id: `${r.entry_ids[0]}-${r.entry_ids[1]}`,
          entry: [toMeta(a.entry), toMeta(b.entry)],
          content: r.content,
          date: r.date,
          user: r.user,
        });
      }
      return page(out, q);
    },
    async getReviews(q) {
      return reviewPage(q, reviewOrders[q.sort ?? 'mostVoted']);
    },
    async getTopReviews(q) {
      return reviewPage(q, reviewOrders.mostVoted);
    },
    async searchNews(s) {
      const pool = s.q === undefined ? news : rank(newsIndex, news, s.q, newestFirst);
      const list = s.tag === undefined ? pool : pool.filter((n) => n.tag_ids.includes(s.tag!));
      return pageOf(list, s, toNews);
    },
    async getNews(id, sfw) {
      const n = newsById.get(id);
      if (!n) return undefined;
      const full: NewsFull = {
        ...toNews(n),
        content: n.content,
        tags: n.tag_ids.flatMap((t) => {
          const tag = newsTags.get(t);
          return tag ? [{ mal_id: tag.mal_id, name: tag.name, url: tag.url }] : [];
        }),
        related: relatedLists(n.anime_ids, n.manga_ids, sfw),
      };
      return full;
    },
    async listNewsTags() {
      const counts = new Map<number, number>();
      for (const n of news) for (const t of n.tag_ids) counts.set(t, (counts.get(t) ?? 0) + 1);
      return [...newsTags.values()]
        .sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : a.name < b.name ? -1 : 1))
        .map((t) => ({ mal_id: t.mal_id, name: t.name, url: t.url, category: t.category, count: counts.get(t.mal_id) ?? 0 }));
    },
    async searchArticles(s) {
      const pool = s.q === undefined ? articles : rank(articleIndex, articles, s.q, newestFirst);
      const list = s.tag === undefined ? pool : pool.filter((a) => a.tag_ids.includes(s.tag!));
      return pageOf(list, s, toArticle);
    },
    async getArticle(id, sfw) {
      const a = articleById.get(id);
      if (!a) return undefined;
      const full: ArticleFull = { ...toArticle(a), content: a.content, related: relatedLists(a.anime_ids, a.manga_ids, sfw) };
      return full;
    },
    async listArticleTags() {
      const counts = new Map<number, number>();
      for (const a of articles) for (const t of a.tag_ids) counts.set(t, (counts.get(t) ?? 0) + 1);
      return [...articleTags.values()]
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.mal_id - b.mal_id))
        .map((t) => ({ mal_id: t.mal_id, name: t.name, url: t.url, count: counts.get(t.mal_id) ?? 0 }));
    },
    async searchStacks(s) {
      const pool = s.q === undefined ? stacks : rank(stackIndex, stacks, s.q, (a, b) => b.restacks - a.restacks || a.mal_id - b.mal_id);
      const list = s.type === undefined ? pool : pool.filter((x) => x.type === s.type);
      return pageOf(list, s, toStack);
    },
    async getStack(id, sfw) {
      const s = stackById.get(id);
      if (!s) return undefined;
      const entries = s.entries.flatMap((e) => {
        const m = media(e.type, e.mal_id);
        return m && passesSfw(m.sfw, sfw) ? [{ ...related(e.type, m.entry), comment: e.comment }] : [];
      });
      const full: StackFull = { ...toStack(s), entries };
      return full;
    },
  };
}
