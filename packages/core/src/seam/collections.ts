/**
 * The collections a catalogue store keeps, described once: for each, the schema a record must
 * pass, the fields that make its key, and the fields a query may filter, order or tally by, each
 * with the function that computes it from the record. Stores compute field values when a record
 * is written (the memory store into its indexes, PostgreSQL into typed, indexed columns) and never
 * interpret a record otherwise; the meaning of a field (an entry's SFW class, its premiere season,
 * its broadcast day) is decided here, in core.
 *
 * Every collection has the array field `owners` when its records belong to other records (an
 * episode to its anime, a cast row to its anime, character and voice actors…): `"anime:20"`,
 * `"character:17"`, `"person:1"`, `"manga:2"`, `"producer:3"`. A sub-resource is a query on
 * `owners`.
 * @module
 */
import type { z } from 'zod';
import { sfwClass } from './sfw.js';
import { animeInputSchema, characterInputSchema, episodeRecordInputSchema, mangaInputSchema, videosRecordInputSchema } from '../schemas/records.js';
import {
  animeCharacterRecordSchema,
  animeStaffRecordSchema,
  animeStatisticsRecordSchema,
  articleRecordSchema,
  articleTagRecordSchema,
  externalRecordSchema,
  forumRecordSchema,
  genreRecordSchema,
  mangaCharacterRecordSchema,
  mangaStaffRecordSchema,
  mangaStatisticsRecordSchema,
  moreinfoRecordSchema,
  newsRecordSchema,
  newsTagRecordSchema,
  picturesRecordSchema,
  recommendationRecordSchema,
  relationRecordSchema,
  reviewRecordSchema,
  stackRecordSchema,
  streamingRecordSchema,
  themesRecordSchema,
  updateRecordSchema,
} from '../schemas/records.js';
import { magazineSchema, producerSchema } from '../schemas/producer.js';
import { personSchema } from '../schemas/person.js';
import { deletedIdsResponseSchema } from '../schemas/catalogue-lists.js';
import type { Character } from '../schemas/character.js';
import type { Person } from '../schemas/person.js';
import type { Magazine, Producer } from '../schemas/producer.js';
import type {
  AnimeCharacterRecord,
  AnimeStaffRecord,
  AnimeStatisticsRecord,
  ArticleRecord,
  ArticleTagRecord,
  EpisodeRecord,
  ExternalRecord,
  ForumRecord,
  GenreRecord,
  MangaCharacterRecord,
  MangaStaffRecord,
  MangaStatisticsRecord,
  MoreinfoRecord,
  NewsRecord,
  NewsTagRecord,
  PicturesRecord,
  RecommendationRecord,
  RelationRecord,
  ReviewRecord,
  StackRecord,
  StreamingRecord,
  ThemesRecord,
  UpdateRecord,
  VideosRecord,
} from '../schemas/records.js';
import type { Anime } from '../schemas/anime.js';
import type { Manga } from '../schemas/manga.js';

/** A value a record field holds: a number, a string, a boolean, or `null` (absent). */
export type FieldValue = number | string | boolean | null;

/** One key of an ordering: a field and a direction. `null` sorts last in both directions. */
export interface OrderKey {
  /** A field the collection declares. */
  readonly field: string;
  /** The direction. */
  readonly dir: 'asc' | 'desc';
}

/** Records to load into a store; every collection is optional. */
export interface CatalogueData {
  /** Anime records (`GET /v1/anime/{id}`). */
  anime?: readonly Anime[];
  /** Manga records. */
  manga?: readonly Manga[];
  /** Character records. */
  characters?: readonly Character[];
  /** Person records. */
  people?: readonly Person[];
  /** Producer records. */
  producers?: readonly Producer[];
  /** Magazine records. */
  magazines?: readonly Magazine[];
  /** Anime and manga genres, explicit genres, themes and demographics. */
  genres?: readonly GenreRecord[];
  /** Who appears in which anime, with role and voice actors. */
  animeCharacters?: readonly AnimeCharacterRecord[];
  /** Who appears in which manga, with role. */
  mangaCharacters?: readonly MangaCharacterRecord[];
  /** Staff positions per anime. */
  animeStaff?: readonly AnimeStaffRecord[];
  /** Authors per manga. */
  mangaStaff?: readonly MangaStaffRecord[];
  /** Relations between entries (sequel, adaptation…). */
  relations?: readonly RelationRecord[];
  /** External links of anime, manga and producers. */
  external?: readonly ExternalRecord[];
  /** Streaming links per anime. */
  streaming?: readonly StreamingRecord[];
  /** Opening and ending themes per anime. */
  themes?: readonly ThemesRecord[];
  /** Episodes per anime. */
  episodes?: readonly EpisodeRecord[];
  /** Promos, episode videos and music videos per anime. */
  videos?: readonly VideosRecord[];
  /** Pictures of entries, characters and people. */
  pictures?: readonly PicturesRecord[];
  /** List statistics per anime. */
  animeStatistics?: readonly AnimeStatisticsRecord[];
  /** List statistics per manga. */
  mangaStatistics?: readonly MangaStatisticsRecord[];
  /** "More info" text per entry. */
  moreinfo?: readonly MoreinfoRecord[];
  /** User recommendations pairing entries. */
  recommendations?: readonly RecommendationRecord[];
  /** Reviews of anime and manga. */
  reviews?: readonly ReviewRecord[];
  /** News items. */
  news?: readonly NewsRecord[];
  /** News tags. */
  newsTags?: readonly NewsTagRecord[];
  /** Featured articles. */
  articles?: readonly ArticleRecord[];
  /** Article tags. */
  articleTags?: readonly ArticleTagRecord[];
  /** Stacks (user lists of entries). */
  stacks?: readonly StackRecord[];
  /** Episode discussion threads. */
  forum?: readonly ForumRecord[];
  /** When each entry was last updated (`updated_at` of the ids lists and their `updated_since` filter). */
  updates?: readonly UpdateRecord[];
  /** Ids of anime removed from the catalogue (`GET /v1/anime/deleted`). */
  deletedAnimeIds?: readonly number[];
  /** Ids of manga removed from the catalogue (`GET /v1/manga/deleted`). */
  deletedMangaIds?: readonly number[];
}

/** The name of a collection: a key of `CatalogueData`. */
export type CollectionName = keyof CatalogueData;

/** The record type of a collection. */
export type CollectionRecord<C extends CollectionName> = NonNullable<CatalogueData[C]>[number];

/**
 * A field's type, which is also its PostgreSQL column type: `int` (`integer`), `float`
 * (`double precision`), `text` (`text collate "C"`), `bool` (`boolean`), `ints` (`integer[]`),
 * `texts` (`text[]`). Scalars may be `null`; arrays are never `null` (empty instead).
 */
export type FieldType = 'int' | 'float' | 'text' | 'bool' | 'ints' | 'texts';

/** One queryable field of a collection. */
export interface FieldSpec<R> {
  /** The type of its values. */
  readonly type: FieldType;
  /** Computes it from a record. */
  readonly value: (record: R) => FieldValue | readonly (number | string)[];
  /** Whether lists are ordered by it (a store indexes it for ordering, both directions). */
  readonly ordered?: boolean;
  /**
   * Whether its value is the record's own top-level field of the same name, which the schema
   * requires (present, possibly `null`): a store may then answer a `select` of that field from
   * what it keeps for the field instead of reading the record.
   */
  readonly plain?: boolean;
  /**
   * Whether lists count the records of the whole collection by its values (`tally` without
   * conditions: genre counts, the season archive, tag counts): a store may keep those counts as
   * records are written instead of counting on each call.
   */
  readonly counted?: boolean;
  /**
   * Whether it is one of the few fields that most lists test or select (approval, SFW, type,
   * status, whether ranked, the id): a store may keep them together in one narrow index, so that a
   * list's total or a random pick, which count most of a collection, read that index instead of
   * every record's row.
   */
  readonly common?: boolean;
  /**
   * Whether it is a scalar that takes only a few values across the collection (type, status,
   * approval, SFW class, rating): a store may keep how many records hold each combination of such
   * fields, so that the total of a list whose conditions test only them is read from a few rows
   * instead of counted over every match. On a list field of a few distinct values (tags): a store
   * may keep those counts per element too, for lists that also test one element (a genre filter).
   */
  readonly grouped?: boolean;
}

/** How one collection is stored and queried. */
export interface CollectionSpec<R> {
  /** Validates one record as an import accepts it; its output is what gets stored. */
  readonly schema: z.ZodType;
  /** The record fields whose values make its key, joined by `:` (objects as JSON); none: the record itself. */
  readonly key: readonly string[];
  /** The fields a query may test, order or tally by. */
  readonly fields: Readonly<Record<string, FieldSpec<R>>>;
  /** The texts `search` matches, when the collection is searchable. */
  readonly search?: (record: R) => readonly string[];
  /** The order of equally relevant search hits, and which hits a search keeps first when it must keep a few. */
  readonly relevance?: readonly OrderKey[];
}

// ---- field builders ----
const int = <R>(value: (r: R) => number | null, ordered = false): FieldSpec<R> => ({ type: 'int', value, ordered });
const float = <R>(value: (r: R) => number | null, ordered = false): FieldSpec<R> => ({ type: 'float', value, ordered });
const text = <R>(value: (r: R) => string | null, ordered = false): FieldSpec<R> => ({ type: 'text', value, ordered });
const bool = <R>(value: (r: R) => boolean | null): FieldSpec<R> => ({ type: 'bool', value });
const ints = <R>(value: (r: R) => readonly number[]): FieldSpec<R> => ({ type: 'ints', value });
const owners = <R>(value: (r: R) => readonly string[]): FieldSpec<R> => ({ type: 'texts', value: (r) => [...new Set(value(r))] });
/** Marks a field as the record's own field of that name (`FieldSpec.plain`). */
const own = <R>(spec: FieldSpec<R>): FieldSpec<R> => ({ ...spec, plain: true });
/** Marks a field whose counts per value lists read (`FieldSpec.counted`). */
const counted = <R>(spec: FieldSpec<R>): FieldSpec<R> => ({ ...spec, counted: true });
/** Marks a field most lists test or select (`FieldSpec.common`). */
const common = <R>(spec: FieldSpec<R>): FieldSpec<R> => ({ ...spec, common: true });
/** Marks a field of a few values (`FieldSpec.grouped`). */
const grouped = <R>(spec: FieldSpec<R>): FieldSpec<R> => ({ ...spec, grouped: true });
const malId = <R extends { mal_id: number }>() => own(int<R>((r) => r.mal_id, true));
/** Whether anyone has favorited it: the top lists of characters and people hold those. */
const favorited = <R extends { favorites: number | null }>() => grouped(bool<R>((r) => (r.favorites ?? 0) > 0));
const asc = (field: string): OrderKey => ({ field, dir: 'asc' });
const desc = (field: string): OrderKey => ({ field, dir: 'desc' });

/** The distinct ids of some lists of references, in first-seen order. */
function idsOf(...lists: ReadonlyArray<ReadonlyArray<{ mal_id: number }>>): number[] {
  const ids: number[] = [];
  for (const list of lists) for (const { mal_id } of list) if (!ids.includes(mal_id)) ids.push(mal_id);
  return ids;
}

/** Every title of an anime or manga that search matches. */
export function mediaTitles(e: Anime | Manga): string[] {
  const titles = [e.title, ...e.title_synonyms, ...e.titles.map((t) => t.title)];
  if (e.title_english) titles.push(e.title_english);
  if (e.title_japanese) titles.push(e.title_japanese);
  return titles;
}

/** The seasons in calendar order. */
export const SEASONS = ['winter', 'spring', 'summer', 'fall'] as const;
/** A season of the year. */
export type Season = (typeof SEASONS)[number];

/**
 * The season an anime premiered in, as `"2024-spring"`: its `season`/`year`, else the quarter of
 * `aired.from` (docs/specification.md: Jikan seasons, schedules, top lists and random picks), else
 * `null` (no start date, or only a year: `"2024 to ?"`).
 * @param a - The anime.
 */
export function premiere(a: Anime): string | null {
  if (a.season && a.year) return `${a.year}-${a.season}`;
  const from = a.aired.from;
  if (!from || a.aired.string === `${from.slice(0, 4)} to ?`) return null;
  return `${from.slice(0, 4)}-${SEASONS[Math.floor((Number(from.slice(5, 7)) - 1) / 3)]!}`;
}

/** The weekdays of `/v1/schedules`. */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
/** A weekday of `/v1/schedules`. */
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * An anime's broadcast day as `/v1/schedules` files it: a weekday (`broadcast.day` `"Saturdays"` is
 * `saturday`), `other` (not weekly), `unknown` (no day), or `null` (a day that is none of these).
 * @param a - The anime.
 */
export function broadcastDay(a: Anime): string | null {
  const b = a.broadcast;
  if (b.string === 'Not scheduled once per week') return 'other';
  if (b.day === null) return 'unknown';
  const day = b.day.toLowerCase();
  return WEEKDAYS.find((d) => day.startsWith(d)) ?? null;
}

/**
 * The fields anime and manga share, with the record field of their dates (`aired`, `published`):
 * every filter and `order_by` of `/v1/anime` and `/v1/manga`, the top lists, seasons and schedules.
 */
function mediaFields<R extends Anime | Manga>(dates: (r: R) => { from: string | null; to: string | null }) {
  return {
    mal_id: common(malId<R>()),
    /** The lower-cased title: `order_by=title` and the `letter` filter. */
    title_key: text<R>((r) => r.title.toLowerCase(), true),
    /** The title as the record holds it, so that an id list including titles reads no record. */
    title: own(text<R>((r) => r.title)),
    start_date: text<R>((r) => dates(r).from, true),
    end_date: text<R>((r) => dates(r).to, true),
    start_day: text<R>((r) => dates(r).from?.slice(0, 10) ?? null),
    end_day: text<R>((r) => dates(r).to?.slice(0, 10) ?? null),
    score: own(float<R>((r) => r.score, true)),
    scored_by: own(int<R>((r) => r.scored_by, true)),
    rank: common(own(int<R>((r) => r.rank, true))),
    popularity: common(own(int<R>((r) => r.popularity, true))),
    /** Whether it has a `rank`: the plain top list holds those. */
    ranked: grouped(bool<R>((r) => r.rank !== null)),
    /** Whether it has a `popularity`: the `bypopularity` top list holds those. */
    popularity_ranked: grouped(bool<R>((r) => r.popularity !== null)),
    members: own(int<R>((r) => r.members, true)),
    favorites: own(int<R>((r) => r.favorites, true)),
    type: grouped(common(own(text<R>((r) => r.type)))),
    status: grouped(common(own(text<R>((r) => r.status)))),
    approved: grouped(common(own(bool<R>((r) => r.approved)))),
    /** 0 safe, 1 Ecchi (hidden in strict mode), 2 adult (hidden whenever SFW is on): `sfwClass`. */
    sfw: grouped(common(int<R>((r) => sfwClass(r)))),
    /** Every genre, explicit genre, theme and demographic id. */
    tags: grouped(counted(ints<R>((r) => idsOf(r.genres, r.explicit_genres, r.themes, r.demographics)))),
  };
}

/**
 * The collection of a media kind: keyed by `mal_id`, the shared fields (`mediaFields`) and the
 * kind's own, searched by every title, most popular first.
 * @param schema - The kind's input schema.
 * @param dates - The record field of its dates.
 * @param fields - Its own fields.
 */
function mediaCollection<R extends Anime | Manga>(
  schema: z.ZodType,
  dates: (r: R) => { from: string | null; to: string | null },
  fields: Readonly<Record<string, FieldSpec<R>>>,
): CollectionSpec<R> {
  return { schema, key: ['mal_id'], fields: { ...mediaFields<R>(dates), ...fields }, search: mediaTitles, relevance: BY_POPULARITY };
}

/** The relevance order of media search hits: more popular first (unranked last), then `mal_id`. */
const BY_POPULARITY: readonly OrderKey[] = [asc('popularity'), asc('mal_id')];
const BY_FAVORITES: readonly OrderKey[] = [desc('favorites'), asc('mal_id')];
const NEWEST: readonly OrderKey[] = [desc('date'), asc('mal_id')];
const refs = (kind: string, ids: readonly number[]) => ids.map((id) => `${kind}:${id}`);
const byOwner = <R>(value: (r: R) => string): FieldSpec<R> => owners((r) => [value(r)]);

/**
 * Every collection, by name. The spec of a collection is typed over its record.
 * @example
 * ```ts
 * COLLECTIONS.episodes.key; // ['anime_id', 'mal_id']
 * COLLECTIONS.anime.fields.sfw.value(anime); // 0, 1 or 2
 * ```
 */
export const COLLECTIONS: { readonly [C in CollectionName]: CollectionSpec<CollectionRecord<C>> } = {
  anime: mediaCollection<Anime>(animeInputSchema, (a) => a.aired, {
    episodes: own(int((a) => a.episodes, true)),
    rating: grouped(own(text((a) => a.rating))),
    airing: grouped(common(own(bool((a) => a.airing)))),
    /** Every producer, studio and licensor id. */
    companies: ints((a) => idsOf(a.producers, a.studios, a.licensors)),
    season: counted(text(premiere)),
    broadcast: text(broadcastDay),
  }),
  manga: mediaCollection<Manga>(mangaInputSchema, (m) => m.published, {
    chapters: own(int((m) => m.chapters, true)),
    volumes: own(int((m) => m.volumes, true)),
    publishing: grouped(common(own(bool((m) => m.publishing)))),
    magazines: ints((m) => idsOf(m.serializations)),
  }),
  characters: {
    schema: characterInputSchema,
    key: ['mal_id'],
    fields: { mal_id: malId(), name: text((c) => c.name.toLowerCase(), true), favorites: int((c) => c.favorites, true), favorited: favorited() },
    search: (c) => [c.name, c.name_kanji ?? '', ...c.nicknames],
    relevance: BY_FAVORITES,
  },
  people: {
    schema: personSchema,
    key: ['mal_id'],
    fields: {
      mal_id: malId(),
      name: text((p) => p.name.toLowerCase(), true),
      birthday: text((p) => p.birthday, true),
      favorites: int((p) => p.favorites, true),
      favorited: favorited(),
    },
    search: (p) => [p.name, ...p.alternate_names, [p.given_name, p.family_name].filter(Boolean).join(' ')],
    relevance: BY_FAVORITES,
  },
  producers: {
    schema: producerSchema,
    key: ['mal_id'],
    fields: {
      mal_id: malId(),
      /** The first title, lower-cased: what `letter` tests. */
      name: text((p) => (p.titles[0]?.title ?? '').toLowerCase()),
      count: int((p) => p.count, true),
      favorites: int((p) => p.favorites, true),
      established: text((p) => p.established, true),
    },
    search: (p) => p.titles.map((t) => t.title),
    relevance: BY_FAVORITES,
  },
  magazines: {
    schema: magazineSchema,
    key: ['mal_id'],
    fields: { mal_id: malId(), name: text((m) => m.name.toLowerCase(), true), count: int((m) => m.count, true) },
    search: (m) => [m.name],
    relevance: [desc('count'), asc('mal_id')],
  },
  genres: {
    schema: genreRecordSchema,
    key: ['kind', 'mal_id'],
    fields: {
      mal_id: malId(),
      kind: text((g) => g.kind),
      category: text((g) => g.category),
      /** The category's place in `genres`, `explicit_genres`, `themes`, `demographics`. */
      category_order: int((g) => ['genres', 'explicit_genres', 'themes', 'demographics'].indexOf(g.category), true),
    },
  },
  animeCharacters: {
    schema: animeCharacterRecordSchema,
    key: ['anime_id', 'character_id'],
    fields: {
      owners: owners((r) => [`anime:${r.anime_id}`, `character:${r.character_id}`, ...refs('person', r.voice_actors.map((v) => v.person_id))]),
    },
  },
  mangaCharacters: {
    schema: mangaCharacterRecordSchema,
    key: ['manga_id', 'character_id'],
    fields: { owners: owners((r) => [`manga:${r.manga_id}`, `character:${r.character_id}`]) },
  },
  animeStaff: {
    schema: animeStaffRecordSchema,
    key: ['anime_id', 'person_id', 'positions'],
    fields: { owners: owners((r) => [`anime:${r.anime_id}`, `person:${r.person_id}`]) },
  },
  mangaStaff: {
    schema: mangaStaffRecordSchema,
    key: ['manga_id', 'person_id', 'position'],
    fields: { owners: owners((r) => [`manga:${r.manga_id}`, `person:${r.person_id}`]) },
  },
  relations: {
    schema: relationRecordSchema,
    key: ['from_type', 'from_id', 'relation', 'to_type', 'to_id'],
    fields: { owners: byOwner((r) => `${r.from_type}:${r.from_id}`) },
  },
  external: { schema: externalRecordSchema, key: ['type', 'mal_id'], fields: {} },
  streaming: { schema: streamingRecordSchema, key: ['anime_id'], fields: {} },
  themes: { schema: themesRecordSchema, key: ['anime_id'], fields: {} },
  episodes: {
    schema: episodeRecordInputSchema,
    key: ['anime_id', 'mal_id'],
    fields: { owners: byOwner((e) => `anime:${e.anime_id}`), mal_id: malId() },
  },
  videos: { schema: videosRecordInputSchema, key: ['anime_id'], fields: {} },
  pictures: { schema: picturesRecordSchema, key: ['type', 'mal_id'], fields: {} },
  animeStatistics: { schema: animeStatisticsRecordSchema, key: ['anime_id'], fields: {} },
  mangaStatistics: { schema: mangaStatisticsRecordSchema, key: ['manga_id'], fields: {} },
  moreinfo: { schema: moreinfoRecordSchema, key: ['type', 'mal_id'], fields: {} },
  recommendations: {
    schema: recommendationRecordSchema,
    key: ['type', 'entry_ids', 'user', 'date'],
    fields: {
      owners: owners((r) => refs(r.type, r.entry_ids)),
      type: text((r) => r.type),
      date: text((r) => r.date, true),
      first: int((r) => r.entry_ids[0], true),
      second: int((r) => r.entry_ids[1], true),
      entry_ids: ints((r) => r.entry_ids),
    },
  },
  reviews: {
    schema: reviewRecordSchema,
    key: ['type', 'mal_id'],
    fields: {
      owners: byOwner((r) => `${r.type}:${r.entry_id}`),
      mal_id: malId(),
      type: text((r) => r.type),
      entry_id: int((r) => r.entry_id),
      date: text((r) => r.date, true),
      reactions: int((r) => r.reactions.overall, true),
      is_preliminary: bool((r) => r.is_preliminary),
      is_spoiler: bool((r) => r.is_spoiler),
    },
  },
  news: {
    schema: newsRecordSchema,
    key: ['mal_id'],
    fields: {
      owners: owners((n) => [...refs('anime', n.anime_ids), ...refs('manga', n.manga_ids)]),
      mal_id: malId(),
      date: text((n) => n.date, true),
      tag_ids: counted(ints((n) => n.tag_ids)),
      anime_ids: ints((n) => n.anime_ids),
      manga_ids: ints((n) => n.manga_ids),
    },
    search: (n) => [n.title],
    relevance: NEWEST,
  },
  newsTags: {
    schema: newsTagRecordSchema,
    key: ['mal_id'],
    fields: { mal_id: malId(), category: text((t) => t.category, true), name: text((t) => t.name, true) },
  },
  articles: {
    schema: articleRecordSchema,
    key: ['mal_id'],
    fields: {
      owners: owners((a) => [
        ...refs('anime', a.anime_ids),
        ...refs('manga', a.manga_ids),
        ...refs('character', a.character_ids),
        ...refs('person', a.person_ids),
      ]),
      mal_id: malId(),
      date: text((a) => a.date, true),
      tag_ids: counted(ints((a) => a.tag_ids)),
    },
    search: (a) => [a.title],
    relevance: NEWEST,
  },
  articleTags: {
    schema: articleTagRecordSchema,
    key: ['mal_id'],
    fields: { mal_id: malId(), name: text((t) => t.name, true) },
  },
  stacks: {
    schema: stackRecordSchema,
    key: ['mal_id'],
    fields: {
      owners: owners((s) => s.entries.map((e) => `${e.type}:${e.mal_id}`)),
      mal_id: malId(),
      created_at: text((s) => s.created_at, true),
      type: text((s) => s.type),
      restacks: int((s) => s.restacks, true),
    },
    search: (s) => [s.title],
    relevance: [desc('restacks'), asc('mal_id')],
  },
  forum: {
    schema: forumRecordSchema,
    key: ['anime_id', 'mal_id'],
    fields: { owners: byOwner((f) => `anime:${f.anime_id}`), mal_id: malId(), date: text((f) => f.date, true) },
  },
  updates: {
    schema: updateRecordSchema,
    key: ['type', 'mal_id'],
    fields: { type: text((u) => u.type), mal_id: malId(), updated_at: float((u) => Date.parse(u.updated_at)) },
  },
  deletedAnimeIds: { schema: deletedIdsResponseSchema.shape.data.element, key: [], fields: { mal_id: int((id) => id, true) } },
  deletedMangaIds: { schema: deletedIdsResponseSchema.shape.data.element, key: [], fields: { mal_id: int((id) => id, true) } },
};

/** Every collection name, in `CatalogueData` order. */
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];

/**
 * Whether a string names a collection.
 * @param name - Any string.
 */
export function isCollectionName(name: string): name is CollectionName {
  return Object.hasOwn(COLLECTIONS, name);
}

/**
 * The key of a record in its collection: its key fields' values joined by `:` (objects and arrays
 * as JSON); a record without key fields (a bare deleted id) is its own key.
 * @param collection - The collection.
 * @param record - A record of it.
 * @returns `"20"` for anime 20, `"20:17"` for character 17 in anime 20, …
 * @example
 * ```ts
 * collectionKey('episodes', { anime_id: 20, mal_id: 3, ... }); // '20:3'
 * ```
 */
export function collectionKey(collection: CollectionName, record: unknown): string {
  const { key } = COLLECTIONS[collection];
  if (key.length === 0) return typeof record === 'object' ? JSON.stringify(record) : String(record);
  const r = record as Record<string, unknown>;
  return key.map((field) => (typeof r[field] === 'object' ? JSON.stringify(r[field]) : String(r[field]))).join(':');
}

/**
 * Computes every declared field of a record (what a store indexes when it writes one).
 * @param collection - The collection.
 * @param record - A record of it.
 * @returns Field values by field name.
 */
export function fieldValues(collection: CollectionName, record: unknown): Record<string, FieldValue | readonly (number | string)[]> {
  const out: Record<string, FieldValue | readonly (number | string)[]> = {};
  for (const [name, spec] of Object.entries(COLLECTIONS[collection].fields) as [string, FieldSpec<unknown>][]) out[name] = spec.value(record);
  return out;
}
