/**
 * What the endpoints answer: the `Catalogue` (one method per endpoint, computed in core over a
 * `CatalogueStore`, see `seam/types.ts`), the validated queries it takes, and `CatalogueData`, a
 * whole dataset of records.
 * @module
 */
import type { ANIME_ORDER_BY, Approval, Kind, MANGA_ORDER_BY, MediaKind, Season, Weekday } from './kinds.js';
import type { DatePeriod } from '../edge/query.js';
import type { SfwMode } from '../seam/sfw.js';
import type { Anime, AnimeFull } from '../schemas/anime.js';
import type { Article, ArticleFull, ArticleTag } from '../schemas/article.js';
import type { AnimeCharacter, AnimeStaff, MangaCharacter } from '../schemas/cast.js';
import type { SeasonArchive } from '../schemas/catalogue-lists.js';
import type {
  Character,
  CharacterAnime,
  CharacterFull,
  CharacterManga,
  CharacterPicture,
  CharacterVoice,
} from '../schemas/character.js';
import type { Link } from '../schemas/common.js';
import type { Episode, EpisodeDetail } from '../schemas/episode.js';
import type { ForumTopic } from '../schemas/forum.js';
import type { Manga, MangaFull } from '../schemas/manga.js';
import type { AnimeStatistics, AnimeThemes, MangaStatistics, MediaPicture, Moreinfo, Relation } from '../schemas/media.js';
import type { News, NewsFull, NewsTag } from '../schemas/news.js';
import type { Person, PersonAnime, PersonFull, PersonManga, PersonPicture, PersonVoice } from '../schemas/person.js';
import type { Genre, Magazine, Producer, ProducerFull } from '../schemas/producer.js';
import type { EntryRecommendation, RecentRecommendation } from '../schemas/recommendation.js';
import type { AnimeReview, MangaReview, ReviewWithEntry } from '../schemas/review.js';
import type { Stack, StackFull } from '../schemas/stack.js';
import type { AnimeVideos, EpisodeVideo } from '../schemas/video.js';

import type { Page } from '../seam/types.js';

export type { Page };

/** Fields an anime list can be ordered by (spec, `order_by`): the keys of `ANIME_ORDER_BY`. */
export type AnimeOrderBy = keyof typeof ANIME_ORDER_BY;

export type { Approval };

/**
 * What an anime and a manga search share (`GET /v1/anime`, `GET /v1/manga`), validated and with
 * labels already mapped (docs/specification.md: Jikan query parameters; Jikan filters).
 * @typeParam O - The fields the kind can be ordered by.
 */
export interface MediaSearch<O extends string> extends Paging {
  /** Fuzzy title text; results are ordered by relevance unless `orderBy` is given. */
  q?: string | undefined;
  /** Type labels (`TV`, `Movie`, `Manga`, `Light Novel`…), OR-ed. */
  types?: string[] | undefined;
  /** Status label (`Currently Airing`, `Publishing`…). */
  status?: string | undefined;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
  /** Which approval states to include: `approved` (default), `all` (`unapproved`) or `unapproved` (`unapproved=only`). */
  approval: Approval;
  /** Exact score. */
  score?: number | undefined;
  /** Lowest score, inclusive. */
  minScore?: number | undefined;
  /** Highest score, inclusive. */
  maxScore?: number | undefined;
  /** Genre ids the entry must all have (genres, explicit genres, themes, demographics). */
  genres?: number[] | undefined;
  /** Genre ids the entry must have none of. */
  genresExclude?: number[] | undefined;
  /** Field to order by; absent: relevance with `q`, else `mal_id` ascending. */
  orderBy?: O | undefined;
  /** Direction of the ordering. */
  sort: 'asc' | 'desc';
  /** First character of the title. */
  letter?: string | undefined;
  /** Start date (`aired.from`, `published.from`) on or after this period's first day. */
  startDate?: DatePeriod | undefined;
  /** End date (`aired.to`, `published.to`) on or before this period's last day. */
  endDate?: DatePeriod | undefined;
}

/** A validated anime search (`GET /v1/anime`). */
export interface AnimeSearch extends MediaSearch<AnimeOrderBy> {
  /** Rating labels (`PG-13 - Teens 13 or older`…), OR-ed. */
  ratings?: string[] | undefined;
  /** Producer ids, any of which (producers, studios, licensors). */
  producers?: number[] | undefined;
}

/** A page request of a list: 1-based page and page size (already validated). */
export interface Paging {
  /** 1-based page number (already validated). */
  page: number;
  /** Page size (already validated against the route's bounds). */
  limit: number;
}

export type { MediaKind };

/** Fields a manga list can be ordered by (spec, `order_by`): the keys of `MANGA_ORDER_BY`. */
export type MangaOrderBy = keyof typeof MANGA_ORDER_BY;

/** A validated manga search (`GET /v1/manga`). */
export interface MangaSearch extends MediaSearch<MangaOrderBy> {
  /** Magazine ids, any of which (`serializations`). */
  magazines?: number[] | undefined;
}

/**
 * A validated search over named records (characters, people, producers, magazines): relevance
 * with `q`, else `orderBy` (nulls last, ties by `mal_id`), else `mal_id` ascending.
 * @typeParam O - The fields the list can be ordered by.
 */
export interface NamedSearch<O extends string> extends Paging {
  /** Fuzzy name text; results are ordered by relevance unless `orderBy` is given. */
  q?: string | undefined;
  /** Field to order by; absent: relevance with `q`, else `mal_id` ascending. */
  orderBy?: O | undefined;
  /** Direction of the ordering. */
  sort: 'asc' | 'desc';
  /** First character of the name (producers: of the first title). */
  letter?: string | undefined;
}

/** `GET /v1/characters`. */
export type CharacterSearch = NamedSearch<'mal_id' | 'name' | 'favorites'>;
/** `GET /v1/people`. */
export type PersonSearch = NamedSearch<'mal_id' | 'name' | 'birthday' | 'favorites'>;
/** `GET /v1/producers`. */
export type ProducerSearch = NamedSearch<'mal_id' | 'count' | 'favorites' | 'established'>;
/** `GET /v1/magazines`. */
export type MagazineSearch = NamedSearch<'mal_id' | 'name' | 'count'>;

/** Genre categories (`filter` of `/v1/genres/*`). */
export type GenreCategory = 'genres' | 'explicit_genres' | 'themes' | 'demographics';

/** Filters shared by the season, upcoming and schedule lists (docs/specification.md: Jikan filters; docs/specification.md: Jikan seasons, schedules, top lists and random picks). */
export interface AiringFilter extends Paging {
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
  /** Which approval states to include: `approved` (default), `all` (`unapproved`) or `unapproved` (`unapproved=only`). */
  approval: Approval;
  /** Absent: no filter; true: only Kids demographic (15); false: none of it. */
  kids?: boolean | undefined;
  /** Type labels, OR-ed (`filter` of the season endpoints). */
  types?: string[] | undefined;
}

/** `GET /v1/seasons/{year}/{season}` and `/now`: anime of one season, most members first. */
export interface SeasonQuery extends AiringFilter {
  /** The season's year. */
  year: number;
  /** The season. */
  season: Season;
  /** Also long-running shows still airing that began before the season. */
  continuing?: boolean | undefined;
}

/** Weekday or special value of `/v1/schedules` `filter`. */
export type ScheduleDay = Weekday | 'other' | 'unknown';

/** `GET /v1/schedules`: airing TV anime by broadcast day, fewest members first (docs/specification.md: Jikan seasons, schedules, top lists and random picks). */
export interface ScheduleQuery extends AiringFilter {
  /** Broadcast day; absent: every day. */
  day?: ScheduleDay | undefined;
}

/** `GET /v1/top/anime` (docs/specification.md: Jikan seasons, schedules, top lists and random picks). */
export interface TopAnimeQuery extends Paging {
  /** Type labels, OR-ed. */
  types?: string[] | undefined;
  /** `airing`, `upcoming`, `bypopularity` or `favorite`; absent: by rank. The order of each is `TOP_ORDER`. */
  filter?: 'airing' | 'upcoming' | 'bypopularity' | 'favorite' | undefined;
  /** Rating labels, OR-ed. */
  ratings?: string[] | undefined;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
}

/** `GET /v1/top/manga` (docs/specification.md: Jikan seasons, schedules, top lists and random picks). */
export interface TopMangaQuery extends Paging {
  /** Type labels, OR-ed. */
  types?: string[] | undefined;
  /** `publishing`, `upcoming`, `bypopularity` or `favorite`; absent: by rank. The order of each is `TOP_ORDER`. */
  filter?: 'publishing' | 'upcoming' | 'bypopularity' | 'favorite' | undefined;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
}

/** `GET /v1/random/anime|manga`: the filters, and a number in [0, 1) that picks among the matches. */
export interface RandomQuery {
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
  /** Which approval states to include: `approved` (default), `all` (`unapproved`) or `unapproved` (`unapproved=only`). */
  approval: Approval;
  /** Supplied by the caller (e.g. `Math.random()`), so that the store stays deterministic. */
  pick: number;
}

/** Global and top review lists (`/v1/reviews/*`, `/v1/top/reviews`). */
export interface ReviewQuery extends Paging {
  /** Anime or manga reviews. */
  type: MediaKind;
  /** Include preliminary reviews (written before the reviewer finished the entry). */
  preliminary: boolean;
  /** Include reviews marked as spoilers. */
  spoilers: boolean;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
  /** `mostVoted` (default; reactions desc), `newest` or `oldest`. Top reviews always use `mostVoted`. */
  sort?: 'mostVoted' | 'newest' | 'oldest' | undefined;
}

/** One entry's reviews (`/v1/anime/{id}/reviews`, `/v1/manga/{id}/reviews`). */
export interface EntryReviewQuery extends Paging {
  /** Include preliminary reviews (written before the reviewer finished the entry). */
  preliminary: boolean;
  /** Include reviews marked as spoilers. */
  spoilers: boolean;
  /** `mostVoted` (reactions desc), `newest` or `oldest`. */
  sort: 'mostVoted' | 'newest' | 'oldest';
}

/** `GET /v1/recommendations/anime|manga`: newest first. */
export interface RecentRecommendationQuery extends Paging {
  /** Anime or manga recommendations. */
  type: MediaKind;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
}

/** News and article browsing: newest first, or by relevance with `q`. */
export interface PostSearch extends Paging {
  /** Fuzzy title text. */
  q?: string | undefined;
  /** A tag id; only posts carrying it. */
  tag?: number | undefined;
}

/** `GET /v1/stacks`: newest first, or by relevance with `q`. */
export interface StackSearch extends Paging {
  /** Fuzzy name text. */
  q?: string | undefined;
  /** Only stacks of this kind. */
  type?: Kind | 'mixed' | undefined;
}

/** `GET /v1/anime/ids`, `/v1/manga/ids`: every matching id, ascending. */
export interface IdsQuery {
  /** Type labels, OR-ed. */
  types?: string[] | undefined;
  /** Status label. */
  status?: string | undefined;
  /** Rating labels, OR-ed (anime only; manga has no rating). */
  ratings?: string[] | undefined;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
  /** Only entries updated at or after this instant (ms since the epoch). */
  updatedSince?: number | undefined;
  /** Top-level field names to return beside each id (validated by the route); absent: bare ids. */
  include?: readonly string[] | undefined;
}

/** The result of an ids query: bare ids, or objects with `mal_id` and the included fields. */
export interface IdsResult {
  /** How many ids matched. */
  total: number;
  /** The ids, ascending: bare numbers, or objects with `mal_id` and the included fields. */
  data: Array<number | ({ mal_id: number } & Record<string, unknown>)>;
}

/**
 * What every anime and every manga answers, by the method name's suffix: the catalogue's method is
 * `get${Kind}${Suffix}` (`getAnime`, `getAnimeFull`, `getMangaFull`…). Each answers `undefined` when
 * the entry does not exist (the route answers 404).
 * @typeParam E - The entry.
 * @typeParam F - Its `full` object.
 * @typeParam R - One of its reviews.
 * @typeParam C - One of its characters.
 * @typeParam S - Its statistics.
 */
export interface EntryParts<E, F, R, C, S> {
  /** The entry itself. */
  '': (id: number) => Promise<E | undefined>;
  /** The full entry: relations (SFW-filtered), external links, moreinfo, and for anime themes and streaming links. */
  Full: (id: number, sfw: SfwMode) => Promise<F | undefined>;
  /** Relation groups in source order; groups left empty by SFW are dropped. */
  Relations: (id: number, sfw: SfwMode) => Promise<Relation[] | undefined>;
  /** Entries recommended with this one, most votes first. */
  Recommendations: (id: number, sfw: SfwMode) => Promise<EntryRecommendation[] | undefined>;
  /** News about the entry, newest first; with SFW, items that also concern a filtered entry are dropped. */
  News: (id: number, paging: Paging, sfw: SfwMode) => Promise<Page<News> | undefined>;
  /** The entry's reviews, in `query.sort` order. */
  Reviews: (id: number, query: EntryReviewQuery) => Promise<Page<R> | undefined>;
  /** Stacks that contain the entry, newest first. */
  Stacks: (id: number, paging: Paging) => Promise<Page<Stack> | undefined>;
  /** Articles that feature the entry, newest first. */
  Articles: (id: number, paging: Paging) => Promise<Page<Article> | undefined>;
  /** Characters, main roles first, then by favorites. */
  Characters: (id: number) => Promise<C[] | undefined>;
  /** Pictures of the entry. */
  Pictures: (id: number) => Promise<MediaPicture[] | undefined>;
  /** List statistics and the score distribution. */
  Statistics: (id: number) => Promise<S | undefined>;
  /** The free-text "more info". */
  Moreinfo: (id: number) => Promise<Moreinfo | undefined>;
  /** External links. */
  External: (id: number) => Promise<Link[] | undefined>;
}

/**
 * What every character and every person answers, by the method name's suffix: `get${Kind}${Suffix}`
 * (`getCharacter`, `getCharacterFull`, `getPersonFull`…); `undefined` when there is no such record.
 * @typeParam R - The record.
 * @typeParam F - Its `full` object.
 * @typeParam A - One of its anime (appearances or staff work).
 * @typeParam M - One of its manga.
 * @typeParam P - One of its pictures.
 */
export interface NamedParts<R, F, A, M, P> {
  /** The record itself. */
  '': (id: number) => Promise<R | undefined>;
  /** The record with its anime, its manga and its voices (the media SFW-filtered). */
  Full: (id: number, sfw: SfwMode) => Promise<F | undefined>;
  /** Its anime: a character's appearances, a person's staff positions; SFW-filtered. */
  Anime: (id: number, sfw: SfwMode) => Promise<A[] | undefined>;
  /** Its manga, SFW-filtered. */
  Manga: (id: number, sfw: SfwMode) => Promise<M[] | undefined>;
  /** Its pictures. */
  Pictures: (id: number) => Promise<P[] | undefined>;
  /** Articles that feature it, newest first. */
  Articles: (id: number, paging: Paging) => Promise<Page<Article> | undefined>;
}

/** The parts of one kind under their method names: `'Full'` of `'Anime'` becomes `getAnimeFull`. */
export type KindMethods<K extends string, P> = { [S in keyof P & string as `get${K}${S}`]: P[S] };

/**
 * Every endpoint's answer, computed in core from a `CatalogueStore`'s records (`catalogueOver`):
 * one method per endpoint. Methods about one record return `undefined` when the record does not
 * exist (the route answers 404). SFW modes on detail methods filter only the referenced media,
 * never the root (spec, SFW rule 3). What anime and manga share is `EntryParts`, what characters
 * and people share `NamedParts`, each named per kind (`KindMethods`).
 *
 * @example
 * ```ts
 * const catalogue = catalogueOver(createMemoryStore(demoData));
 * const naruto = await catalogue.getAnime(20);
 * const cast = await catalogue.getAnimeCharacters(20);
 * ```
 */
export interface Catalogue
  extends KindMethods<'Anime', EntryParts<Anime, AnimeFull, AnimeReview, AnimeCharacter, AnimeStatistics>>,
    KindMethods<'Manga', EntryParts<Manga, MangaFull, MangaReview, MangaCharacter, MangaStatistics>>,
    KindMethods<'Character', NamedParts<Character, CharacterFull, CharacterAnime, CharacterManga, CharacterPicture>>,
    KindMethods<'Person', NamedParts<Person, PersonFull, PersonAnime, PersonManga, PersonPicture>> {
  // ---- anime and manga: search and id lists; what only anime have ----
  /**
   * One page of anime matching a search. Ordering: by relevance with `q` (ties: more popular first),
   * by `orderBy` when given (nulls last, ties by `mal_id`), else by `mal_id` ascending.
   */
  searchAnime(search: AnimeSearch): Promise<Page<Anime>>;
  /** Same ordering rules as {@link Catalogue.searchAnime}. */
  searchManga(search: MangaSearch): Promise<Page<Manga>>;
  /** Every deleted anime id, ascending. */
  getDeletedAnimeIds(): Promise<number[]>;
  /** Every deleted manga id, ascending. */
  getDeletedMangaIds(): Promise<number[]>;
  /** Anime ids for `GET /v1/anime/ids`: filtered by rating, SFW and `updatedSince`, ascending, optionally with included fields. */
  listAnimeIds(query: IdsQuery): Promise<IdsResult>;
  /** Manga ids for `GET /v1/manga/ids`, as {@link Catalogue.listAnimeIds}. */
  listMangaIds(query: IdsQuery): Promise<IdsResult>;
  /** Promotional videos, episode videos and music videos (`GET /v1/anime/{id}/videos`). */
  getAnimeVideos(id: number): Promise<AnimeVideos | undefined>;
  /** Episode videos, newest episode first. */
  getAnimeVideoEpisodes(id: number, paging: Paging): Promise<Page<EpisodeVideo> | undefined>;
  /** Staff with their positions (`GET /v1/anime/{id}/staff`). */
  getAnimeStaff(id: number): Promise<AnimeStaff[] | undefined>;
  /** Episodes in order (Jikan pages episodes by 100). */
  getAnimeEpisodes(id: number, paging: Paging): Promise<Page<Episode> | undefined>;
  /** One episode by its number; `undefined` when the anime or the episode does not exist. */
  getAnimeEpisode(id: number, episode: number): Promise<EpisodeDetail | undefined>;
  /** Episode discussion threads, newest first. */
  getAnimeForum(id: number): Promise<ForumTopic[] | undefined>;
  /** Opening and ending themes (`GET /v1/anime/{id}/themes`). */
  getAnimeThemes(id: number): Promise<AnimeThemes | undefined>;
  /** Streaming links (`GET /v1/anime/{id}/streaming`). */
  getAnimeStreaming(id: number): Promise<Link[] | undefined>;

  // ---- characters and people: search and voices ----
  /** One page of characters matching a search (relevance with `q`, else `orderBy`, else `mal_id`). */
  searchCharacters(search: CharacterSearch): Promise<Page<Character>>;
  /** One page of people matching a search (relevance with `q`, else `orderBy`, else `mal_id`). */
  searchPeople(search: PersonSearch): Promise<Page<Person>>;
  /** The character's voice actors, by language. */
  getCharacterVoices(id: number): Promise<CharacterVoice[] | undefined>;
  /** The person's voice roles, SFW-filtered by the anime. */
  getPersonVoices(id: number, sfw: SfwMode): Promise<PersonVoice[] | undefined>;

  // ---- producers, magazines, genres ----
  /** One producer by id; `undefined` when there is none. */
  getProducer(id: number): Promise<Producer | undefined>;
  /** One page of producers matching a search (relevance with `q`, else `orderBy`, else `mal_id`). */
  searchProducers(search: ProducerSearch): Promise<Page<Producer>>;
  /** The producer with its external links. */
  getProducerFull(id: number): Promise<ProducerFull | undefined>;
  /** The producer's external links. */
  getProducerExternal(id: number): Promise<Link[] | undefined>;
  /** One page of magazines matching a search. */
  searchMagazines(search: MagazineSearch): Promise<Page<Magazine>>;
  /** Genres with entry counts: genres, explicit genres, themes, demographics (or one category), by id within each. */
  listGenres(kind: MediaKind, category?: GenreCategory): Promise<Genre[]>;

  // ---- seasons, schedules, top, random ----
  /** Years with anime, newest first, each with its seasons in calendar order. */
  listSeasons(): Promise<SeasonArchive[]>;
  /** Anime of one season (`GET /v1/seasons/{year}/{season}` and `/v1/seasons/now`), filtered and paged. */
  getSeason(query: SeasonQuery): Promise<Page<Anime>>;
  /** Every not-yet-aired anime, most members first. */
  getSeasonUpcoming(query: AiringFilter): Promise<Page<Anime>>;
  /** Currently airing anime by broadcast day (`GET /v1/schedules`). */
  getSchedules(query: ScheduleQuery): Promise<Page<Anime>>;
  /** Top anime for `GET /v1/top/anime`: approved entries in the order `TOP_ORDER` gives the query's `filter`. */
  getTopAnime(query: TopAnimeQuery): Promise<Page<Anime>>;
  /** Top manga for `GET /v1/top/manga`: approved entries in the order `TOP_ORDER` gives the query's `filter`. */
  getTopManga(query: TopMangaQuery): Promise<Page<Manga>>;
  /** Characters with favorites, most first. */
  getTopCharacters(paging: Paging): Promise<Page<Character>>;
  /** People with favorites, most first. */
  getTopPeople(paging: Paging): Promise<Page<Person>>;
  /** `undefined` only when nothing matches. */
  getRandomAnime(query: RandomQuery): Promise<Anime | undefined>;
  /** A random manga among the matches; `undefined` only when nothing matches. */
  getRandomManga(query: RandomQuery): Promise<Manga | undefined>;
  /** The character at position ⌊`pick` × count⌋ in `mal_id` order (`pick` in [0, 1)). */
  getRandomCharacter(pick: number): Promise<Character | undefined>;
  /** The person at position ⌊`pick` × count⌋ in `mal_id` order (`pick` in [0, 1)). */
  getRandomPerson(pick: number): Promise<Person | undefined>;

  // ---- community ----
  /** Recent recommendations, newest first (SFW filters out pairs with a filtered entry). */
  getRecentRecommendations(query: RecentRecommendationQuery): Promise<Page<RecentRecommendation>>;
  /** Reviews with their entry (SFW filters by the entry). */
  getReviews(query: ReviewQuery): Promise<Page<ReviewWithEntry>>;
  /** The most-voted reviews. */
  getTopReviews(query: ReviewQuery): Promise<Page<ReviewWithEntry>>;
  /** One page of news matching a search, newest first. */
  searchNews(search: PostSearch): Promise<Page<News>>;
  /** A news item with its related anime and manga (SFW-filtered). */
  getNews(id: number, sfw: SfwMode): Promise<NewsFull | undefined>;
  /** News tags with counts, by category then name. */
  listNewsTags(): Promise<NewsTag[]>;
  /** One page of articles matching a search, newest first. */
  searchArticles(search: PostSearch): Promise<Page<Article>>;
  /** An article with its related anime and manga (SFW-filtered); `undefined` when there is none. */
  getArticle(id: number, sfw: SfwMode): Promise<ArticleFull | undefined>;
  /** Article tags with counts. */
  listArticleTags(): Promise<ArticleTag[]>;
  /** One page of stacks matching a search, newest first. */
  searchStacks(search: StackSearch): Promise<Page<Stack>>;
  /** A stack with its entries in source order (SFW-filtered). */
  getStack(id: number, sfw: SfwMode): Promise<StackFull | undefined>;
}

export type { CatalogueData } from '../seam/collections.js';
