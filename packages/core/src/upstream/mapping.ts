/**
 * One mapping from Jikan v4 response bodies to the records a catalogue store keeps
 * (`seam/collections.ts`), used by the importer and the refresher alike: an entry (`/{kind}/{id}`,
 * a list item, `/{kind}/{id}/full` with its relations, theme songs, external and streaming links)
 * and each sub-resource `{ data: … }` of an entry, whose owner comes from the request (kind, id).
 *
 * The mapping only reshapes: it reads the fields Jikan v4 serves (its OpenAPI document,
 * https://docs.api.jikan.moe/, corrected by what the server sends, as `docs/specification.md`
 * lists) and leaves validation to the collections' schemas,
 * which the writer applies to every record. A body that is not of the part's shape at all (no
 * `data`, `data` not a list where one is expected, an element not an object) is refused with a
 * {@link MappingError} naming the field.
 * @module
 */
import type { CollectionName, CollectionRecord } from '../seam/collections.js';
import type { EntryPart, MappedRecords, MediaKind } from './types.js';

/** Thrown when a body is not of the shape of the part it was fetched as; `message` names the field. */
export class MappingError extends Error {
  /**
   * Creates the error.
   * @param message - `path: what is wrong` (`data.3.character: expected an object`).
   */
  constructor(message: string) {
    super(message);
    this.name = 'MappingError';
  }
}

/**
 * What one part of an entry maps to:
 * - `records`: the entry's own records, by collection;
 * - `replaces`: the collections in which these records are all the entry owns: a row of the entry
 *   there that `records` does not list is deleted (an upstream list is the whole list);
 * - `references`: records the part mentions but does not own (the characters and people of a cast
 *   or staff list, as short references): written only where the store has none, never over one.
 *
 * Records in a collection not in `replaces` are added or updated, never pruned: the lists that
 * Jikan serves a page at a time or filtered (news, reviews, episodes past their first page) are
 * not the whole list.
 */
export interface MappedPart {
  readonly records: MappedRecords;
  readonly replaces: readonly CollectionName[];
  readonly references: MappedRecords;
}

/**
 * The collections each part of an entry writes, by kind: the `replaces` of a part whose body is
 * the whole list (an episode list of more than one page, news and reviews merge instead; a `full`
 * body replaces `moreinfo` only when it carries `moreinfo`, as this library's `/full` does).
 */
export const PART_COLLECTIONS: {
  readonly [K in MediaKind]: {
    readonly [P in EntryPart]?: readonly CollectionName[];
  };
} = {
  anime: {
    full: ['anime', 'relations', 'themes', 'external', 'streaming', 'moreinfo'],
    characters: ['animeCharacters'],
    staff: ['animeStaff'],
    episodes: ['episodes'],
    pictures: ['pictures'],
    statistics: ['animeStatistics'],
    moreinfo: ['moreinfo'],
    recommendations: ['recommendations'],
    videos: ['videos'],
    news: ['news'],
    reviews: ['reviews'],
    relations: ['relations'],
    themes: ['themes'],
    external: ['external'],
    streaming: ['streaming'],
  },
  manga: {
    full: ['manga', 'relations', 'external', 'moreinfo'],
    characters: ['mangaCharacters'],
    pictures: ['pictures'],
    statistics: ['mangaStatistics'],
    moreinfo: ['moreinfo'],
    recommendations: ['recommendations'],
    news: ['news'],
    reviews: ['reviews'],
    relations: ['relations'],
    external: ['external'],
  },
};

/** The parts of each kind (`PART_COLLECTIONS`' keys): what Jikan serves for that kind. */
export function partsOf(kind: MediaKind): EntryPart[] {
  return Object.keys(PART_COLLECTIONS[kind]) as EntryPart[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

function object(value: unknown, path: string): Json {
  if (!isObject(value)) throw new MappingError(`${path}: expected an object, got ${describe(value)}`);
  return value;
}

function list(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new MappingError(`${path}: expected an array, got ${describe(value)}`);
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
}

/** The `data` of a body (`{ data: … }`). */
function dataOf(body: unknown): unknown {
  const b = object(body, '(body)');
  if (!('data' in b)) throw new MappingError(`data: missing (the body has ${Object.keys(b).slice(0, 5).join(', ') || 'no fields'})`);
  return b.data;
}

/** The elements of `data` as objects, with their paths. */
function items(body: unknown): Array<[Json, string]> {
  return list(dataOf(body), 'data').map((item, i) => [object(item, `data.${i}`), `data.${i}`]);
}

/** A short reference's `mal_id`, or the reference itself when it is not an object (the schema then says what is wrong). */
function idOf(ref: unknown, path: string): unknown {
  return object(ref, path).mal_id;
}

/** Whether a paged body holds the whole list: no `pagination`, or one page only. */
function wholeList(body: unknown): boolean {
  const pagination = (body as Json).pagination;
  if (!isObject(pagination)) return true;
  return pagination.has_next_page !== true && !(typeof pagination.last_visible_page === 'number' && pagination.last_visible_page > 1);
}

/** The fields of `record` but those named: an anime of `/full` without its parts. */
function without(record: Json, fields: readonly string[]): Json {
  return Object.fromEntries(Object.entries(record).filter(([k]) => !fields.includes(k)));
}

/** The parts `/full` adds to an entry, which are records of their own. */
const FULL_PARTS = ['relations', 'theme', 'external', 'streaming', 'moreinfo'] as const;

/** Relation records of an entry from `[{ relation, entry: [{ mal_id, type, … }] }]`, in source order. */
function relationRecords(kind: MediaKind, id: number, groups: unknown, path: string): CollectionRecord<'relations'>[] {
  const out: CollectionRecord<'relations'>[] = [];
  list(groups, path).forEach((group, g) => {
    const at = `${path}.${g}`;
    const { relation, entry } = object(group, at);
    list(entry, `${at}.entry`).forEach((target, t) => {
      const e = object(target, `${at}.entry.${t}`);
      out.push({
        from_type: kind,
        from_id: id,
        relation,
        to_type: e.type,
        to_id: e.mal_id,
      } as CollectionRecord<'relations'>);
    });
  });
  return out;
}

/** A character as a cast list names it (a short reference): the fields it does not carry empty. */
function characterStub(ref: Json, favorites: unknown): Json {
  return {
    mal_id: ref.mal_id,
    url: ref.url,
    images: ref.images,
    name: ref.name,
    name_kanji: null,
    nicknames: [],
    favorites: favorites ?? 0,
    about: null,
  };
}

/** A person as a cast or staff list names them (a short reference): the fields it does not carry empty. */
function personStub(ref: Json): Json {
  return {
    mal_id: ref.mal_id,
    url: ref.url,
    website_url: null,
    images: ref.images,
    name: ref.name,
    given_name: null,
    family_name: null,
    alternate_names: [],
    birthday: null,
    favorites: 0,
    about: null,
  };
}

/** Records with the same key once (the first), so that a list naming one twice writes it once. */
function distinct(records: Json[], key: (r: Json) => unknown): Json[] {
  const seen = new Set<unknown>();
  return records.filter((r) => {
    const k = key(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Records by collection, before validation. */
type Unchecked = Partial<Record<CollectionName, unknown[]>>;
const part = (records: Unchecked, replaces: readonly CollectionName[], references: Unchecked = {}): MappedPart => ({
  records: records as MappedRecords,
  replaces,
  references: references as MappedRecords,
});

/**
 * The entry record of an anime or manga object as Jikan serves it (`/{kind}/{id}`, a list item,
 * or the entry of `/full` without its parts).
 * @param kind - Anime or manga.
 * @param item - The object.
 * @returns `{ anime: [record] }` or `{ manga: [record] }`, to be validated by the collection's schema.
 * @throws MappingError when `item` is not an object.
 * @example
 * ```ts
 * mapListItem('anime', page.items[0]); // { anime: [{ mal_id: 20, … }] }
 * ```
 */
export function mapListItem(kind: MediaKind, item: unknown): MappedRecords {
  const record = without(object(item, '(item)'), FULL_PARTS);
  return part({ [kind]: [record] }, [kind]).records;
}

/**
 * The records of a `/full` body: the entry, and the parts the body carries (relations, external
 * links, and for anime the theme songs and streaming links), each replacing the owner's.
 * @param kind - Anime or manga.
 * @param id - The owner's `mal_id`, from the request.
 * @param body - The body.
 */
function mapFull(kind: MediaKind, id: number, body: unknown): MappedPart {
  const anime = kind === 'anime';
  const data = object(dataOf(body), 'data');
  // The owner is the request's: a body of another entry is not this one's.
  if (data.mal_id !== id) throw new MappingError(`data.mal_id: ${JSON.stringify(data.mal_id)}, but the request was for ${kind} ${id}`);
  const records: Record<string, unknown[]> = { [kind]: [without(data, FULL_PARTS)] };
  const covered: CollectionName[] = [kind];
  if ('relations' in data) {
    records.relations = relationRecords(kind, id, data.relations, 'data.relations');
    covered.push('relations');
  }
  if ('external' in data) {
    records.external = [{ type: kind, mal_id: id, links: data.external }];
    covered.push('external');
  }
  if (anime && 'theme' in data) {
    records.themes = [{ anime_id: id, ...object(data.theme, 'data.theme') }];
    covered.push('themes');
  }
  if (anime && 'streaming' in data) {
    records.streaming = [{ anime_id: id, links: data.streaming }];
    covered.push('streaming');
  }
  if ('moreinfo' in data) {
    records.moreinfo = [{ type: kind, mal_id: id, moreinfo: data.moreinfo }];
    covered.push('moreinfo');
  }
  return part(records, covered);
}

/**
 * The records of a `/characters` body: the cast rows, and the characters (and for anime the voice
 * actors) they name, as references.
 * @param kind - Anime or manga.
 * @param id - The owner's `mal_id`, from the request.
 * @param body - The body.
 * @param replaces - The collections the part replaces.
 */
function mapCharacters(kind: MediaKind, id: number, body: unknown, replaces: readonly CollectionName[]): MappedPart {
  const anime = kind === 'anime';
  const rows = items(body);
  if (!anime) {
    const cast = rows.map(([item, at]) => ({
      manga_id: id,
      character_id: idOf(item.character, `${at}.character`),
      role: item.role,
    }));
    const characters = rows.map(([item]) => characterStub(item.character as Json, undefined));
    return part({ mangaCharacters: distinct(cast, (r) => r.character_id) }, replaces, { characters: distinct(characters, (r) => r.mal_id) });
  }
  const cast = rows.map(([item, at]) => ({
    anime_id: id,
    character_id: idOf(item.character, `${at}.character`),
    role: item.role,
    voice_actors: list(item.voice_actors ?? [], `${at}.voice_actors`).map((va, v) => {
      const actor = object(va, `${at}.voice_actors.${v}`);
      return {
        person_id: idOf(actor.person, `${at}.voice_actors.${v}.person`),
        language: actor.language,
      };
    }),
  }));
  const characters = rows.map(([item]) => characterStub(item.character as Json, item.favorites));
  const people = rows.flatMap(([item]) => ((item.voice_actors ?? []) as Json[]).map((va) => personStub(va.person as Json)));
  return part({ animeCharacters: distinct(cast, (r) => r.character_id) }, replaces, {
    characters: distinct(characters, (r) => r.mal_id),
    people: distinct(people, (r) => r.mal_id),
  });
}

/**
 * Maps one part of one entry, as the upstream served it, to records.
 * @param kind - Anime or manga (the owner's kind, from the request).
 * @param id - The owner's `mal_id`, from the request.
 * @param which - The part (`full`, `characters`, …).
 * @param body - The body (`{ data: … }`).
 * @returns The records, the collections they replace for the owner, and the records they refer to.
 * @throws MappingError when the body is not of the part's shape (its message names the field),
 * or the kind has no such part (`/manga/{id}/staff`).
 * @example
 * ```ts
 * const mapped = mapEntryPart('anime', 20, 'characters', await (await fetch(`${base}/anime/20/characters`)).json());
 * mapped.records.animeCharacters; // [{ anime_id: 20, character_id: 17, role: 'Main', voice_actors: [...] }, ...]
 * mapped.replaces; // ['animeCharacters']
 * ```
 */
export function mapEntryPart(kind: MediaKind, id: number, which: EntryPart, body: unknown): MappedPart {
  const replaces = PART_COLLECTIONS[kind][which];
  if (!replaces) throw new MappingError(`(request): ${kind} has no ${which} part`);
  const anime = kind === 'anime';
  switch (which) {
    case 'full':
      return mapFull(kind, id, body);
    case 'characters':
      return mapCharacters(kind, id, body, replaces);
    case 'staff': {
      const rows = items(body);
      const staff = rows.map(([item, at]) => ({
        anime_id: id,
        person_id: idOf(item.person, `${at}.person`),
        positions: item.positions,
      }));
      const people = rows.map(([item]) => personStub(item.person as Json));
      return part(
        {
          animeStaff: distinct(staff, (r) => `${String(r.person_id)}:${JSON.stringify(r.positions)}`),
        },
        replaces,
        {
          people: distinct(people, (r) => r.mal_id),
        },
      );
    }
    case 'episodes': {
      // The list's elements lack the detail's fields (`duration`, `synopsis`) and the v1 additions;
      // the writer keeps what the store holds for those.
      const episodes = items(body).map(([item]) => ({ anime_id: id, ...item }));
      return part({ episodes }, wholeList(body) ? replaces : []);
    }
    case 'pictures':
      return part(
        {
          pictures: [{ type: kind, mal_id: id, pictures: list(dataOf(body), 'data') }],
        },
        replaces,
      );
    case 'statistics': {
      const data = object(dataOf(body), 'data');
      return anime ? part({ animeStatistics: [{ anime_id: id, ...data }] }, replaces) : part({ mangaStatistics: [{ manga_id: id, ...data }] }, replaces);
    }
    case 'moreinfo':
      return part(
        {
          moreinfo: [
            {
              type: kind,
              mal_id: id,
              moreinfo: object(dataOf(body), 'data').moreinfo,
            },
          ],
        },
        replaces,
      );
    case 'recommendations': {
      // Jikan serves an entry's recommendations as vote counts per other entry, not the users'
      // recommendations themselves: each vote is a record naming both entries, with no user, text
      // or date (the writer counts the users' recommendations the store holds among the votes).
      const votes = items(body).flatMap(([item, at]) => {
        const other = idOf(item.entry, `${at}.entry`);
        const count = typeof item.votes === 'number' && Number.isInteger(item.votes) && item.votes > 0 ? Math.min(item.votes, MAX_VOTES) : 1;
        const url = typeof item.url === 'string' ? item.url : '';
        return Array.from({ length: count }, (_, n) => voteRecord(kind, id, other, url, n + 1));
      });
      return part({ recommendations: votes }, replaces);
    }
    case 'videos': {
      const data = object(dataOf(body), 'data');
      return part(
        {
          videos: [
            {
              anime_id: id,
              promo: data.promo,
              episodes: data.episodes,
              music_videos: data.music_videos,
            },
          ],
        },
        replaces,
      );
    }
    case 'news': {
      // The list's element carries no text, tags or other entries: the writer keeps what the store
      // holds of those and adds this entry to it; a new item gets its excerpt as its text.
      const news = items(body).map(([item]) => ({
        ...item,
        content: item.excerpt,
        tag_ids: [],
        anime_ids: anime ? [id] : [],
        manga_ids: anime ? [] : [id],
      }));
      return part({ news }, []);
    }
    case 'reviews': {
      const reviews = items(body).map(([item]) => {
        const { episodes_watched, chapters_read, ...rest } = item;
        return {
          type: kind,
          entry_id: id,
          mal_id: rest.mal_id,
          url: rest.url,
          reactions: rest.reactions,
          date: rest.date,
          review: rest.review,
          score: rest.score,
          tags: rest.tags,
          is_spoiler: rest.is_spoiler,
          is_preliminary: rest.is_preliminary,
          progress: (anime ? episodes_watched : chapters_read) ?? null,
          user: rest.user,
        };
      });
      // Jikan leaves preliminary and spoiler reviews out unless asked, and serves them a page at a
      // time: never the whole list.
      return part({ reviews }, []);
    }
    case 'relations':
      return part({ relations: relationRecords(kind, id, dataOf(body), 'data') }, replaces);
    case 'themes':
      return part({ themes: [{ anime_id: id, ...object(dataOf(body), 'data') }] }, replaces);
    case 'external':
      return part({ external: [{ type: kind, mal_id: id, links: dataOf(body) }] }, replaces);
    case 'streaming':
      return part({ streaming: [{ anime_id: id, links: dataOf(body) }] }, replaces);
  }
}

/** The most votes one pair of entries is stored with: a bound on what one body can make the store hold. */
export const MAX_VOTES = 1000;

/**
 * One vote of `/{kind}/{id}/recommendations`: a recommendation record with an empty user name,
 * text and date, told apart by `user.url` (the pair's page, `#vote-N`), naming the pair lower id
 * first, so that the votes fetched for either entry of a pair are the same records.
 * @param kind - The kind.
 * @param id - The entry the votes were fetched for.
 * @param other - The other entry.
 * @param url - The pair's recommendation page.
 * @param n - The vote's number, from 1.
 */
function voteRecord(kind: MediaKind, id: number, other: unknown, url: string, n: number): Json {
  const pair = typeof other === 'number' && other < id ? [other, id] : [id, other];
  return {
    type: kind,
    entry_ids: pair,
    content: '',
    date: '',
    user: { url: `${url}#vote-${n}`, username: '' },
  };
}

/**
 * Whether a recommendation record is one of the votes {@link mapEntryPart} makes (rather than a
 * user's recommendation, imported from `/recommendations/{kind}`).
 * @param record - A recommendation record.
 */
export function isVoteRecord(record: CollectionRecord<'recommendations'>): boolean {
  return record.user.username === '' && record.date === '' && /#vote-\d+$/.test(record.user.url);
}
