/**
 * The importable resources: every collection of core's `COLLECTIONS`, each with the zod schema
 * that validates one record (the same definitions core's routes and demo data use; for anime,
 * manga, characters, episodes and videos their input forms, which take a record exactly as Jikan
 * v4 serves it and fill the fields it does not send with `null`) and the key an upsert replaces by.
 * Both come from `COLLECTIONS`, so that the importer and the store agree with core on them.
 * @module
 */
import { COLLECTION_NAMES, COLLECTIONS, collectionKey, isCollectionName, type CatalogueData } from '@catalogue-api/core/store';
import { partsOf, type EntryPart, type MediaKind } from '@catalogue-api/core/upstream';

/** A collection of `CatalogueData`: `anime`, `manga`, `characters`, `animeCharacters`… */
export type ResourceName = keyof CatalogueData;

/** What the importer needs of a zod schema. */
export interface RecordSchema {
  /**
   * Validates one record, as zod's `safeParse` does.
   * @param value - The record as read from the input.
   * @returns The parsed record, or the issues with their paths.
   */
  safeParse(value: unknown):
    | { success: true; data: unknown }
    | {
        success: false;
        error: {
          issues: ReadonlyArray<{
            path: ReadonlyArray<PropertyKey>;
            message: string;
          }>;
        };
      };
}

/** How one resource is validated and identified. */
export interface ResourceDefinition {
  /** Validates one record; its output (known fields, in schema order) is what gets stored. */
  schema: RecordSchema;
  /** The fields that identify a record; re-importing a record with the same values replaces it. */
  key: readonly string[];
}

/** Every resource, by its `CatalogueData` key (core's `COLLECTIONS`: schema and key). */
export const RESOURCES: Readonly<Record<ResourceName, ResourceDefinition>> = Object.fromEntries(
  COLLECTION_NAMES.map((name) => [
    name,
    {
      schema: COLLECTIONS[name].schema as RecordSchema,
      key: COLLECTIONS[name].key,
    },
  ]),
) as Record<ResourceName, ResourceDefinition>;

/** The resource names, for messages and `--resource`. */
export const RESOURCE_NAMES: readonly ResourceName[] = COLLECTION_NAMES;

/**
 * Whether a string names a resource.
 * @param name - Any string.
 */
export function isResourceName(name: string): name is ResourceName {
  return isCollectionName(name);
}

/**
 * The identity of a record of a resource, as a string (the upsert key: core's `collectionKey`).
 * @param resource - The resource.
 * @param record - A validated record.
 * @returns `"20"` for anime 20, `"20:17"` for character 17 in anime 20, …
 */
export function recordKey(resource: ResourceName, record: unknown): string {
  return collectionKey(resource, record);
}

/**
 * What the importer takes instead of records of one resource: Jikan responses of an entry's parts,
 * each with the request it answered (NDJSON lines `{ "request": "/anime/20/characters", "body": { "data": [...] } }`,
 * or one response with `--request`), mapped to records by core's `mapEntryPart`.
 */
export const REQUESTS = 'requests';

/** What an import reads: records of one resource, or responses with their requests. */
export type ImportKind = ResourceName | typeof REQUESTS;

/** The owner and the part of an entry that a response answered. */
export interface EntryRequest {
  readonly kind: MediaKind;
  readonly id: number;
  readonly part: EntryPart;
}

/**
 * The entry and part a Jikan request path names: `/anime/20/characters`, `anime/20/full`, a whole
 * URL (`https://api.jikan.moe/v4/manga/2/relations?page=1`), or `/anime/20` (the entry alone).
 * @param text - The path or URL.
 * @returns The request, or `undefined` when the path names no part of an anime or manga.
 * @example
 * ```ts
 * parseRequest('/anime/20/characters'); // { kind: 'anime', id: 20, part: 'characters' }
 * ```
 */
export function parseRequest(text: string): EntryRequest | undefined {
  const match = /(?:^|\/)(anime|manga)\/(\d{1,10})(?:\/([a-z]+))?\/?(?:[?#].*)?$/.exec(text.trim());
  if (!match) return undefined;
  const kind = match[1] as MediaKind;
  const id = Number(match[2]);
  const part = (match[3] ?? 'full') as EntryPart;
  if (!Number.isSafeInteger(id) || !partsOf(kind).includes(part)) return undefined;
  return { kind, id, part };
}

/** Whether a value is an NDJSON line of responses: `{ "request": "…", "body": … }`. */
export function isRequestLine(value: unknown): value is { request: string; body: unknown } {
  return value !== null && typeof value === 'object' && typeof (value as { request?: unknown }).request === 'string' && 'body' in value;
}

/**
 * The resources whose schema accepts a value as one of their records and keeps the most of its
 * fields: a schema drops the fields it does not know, so a character (`mal_id`, `name`, `url`,
 * …) passes as an article tag too, which keeps three of its eight fields.
 * @param value - A record as read.
 * @returns The best fits (several only when they keep as many fields: a bare id is an anime's or a manga's).
 */
export function resourcesOf(value: unknown): ResourceName[] {
  let best: ResourceName[] = [];
  let kept = -1;
  for (const name of RESOURCE_NAMES) {
    const parsed = RESOURCES[name].schema.safeParse(value);
    if (!parsed.success) continue;
    const fields = parsed.data !== null && typeof parsed.data === 'object' ? Object.keys(parsed.data).filter((k) => k in (value as object)).length : 0;
    if (fields > kept) [best, kept] = [[name], fields];
    else if (fields === kept) best.push(name);
  }
  return best;
}

const has = (value: object, ...fields: string[]) => fields.every((f) => f in value);

/**
 * The Jikan sub-resource a value looks like an element (or the `data`) of, for a hint: the
 * elements of `/anime/{id}/characters` are no character records.
 * @param value - A record as read.
 * @returns A request path with `{id}` (`/anime/{id}/characters`), or `undefined`.
 */
export function partLike(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  if (has(value, 'character', 'voice_actors')) return '/anime/{id}/characters';
  if (has(value, 'character', 'role')) return '/manga/{id}/characters';
  if (has(value, 'person', 'positions')) return '/anime/{id}/staff';
  if (has(value, 'entry', 'votes')) return '/{kind}/{id}/recommendations';
  if (has(value, 'relation', 'entry')) return '/{kind}/{id}/relations';
  if (has(value, 'openings', 'endings')) return '/anime/{id}/themes';
  if (has(value, 'scores', 'total')) return '/{kind}/{id}/statistics';
  if (has(value, 'promo', 'music_videos')) return '/anime/{id}/videos';
  if (has(value, 'moreinfo') && Object.keys(value).length === 1) return '/{kind}/{id}/moreinfo';
  if (has(value, 'reactions', 'review')) return '/{kind}/{id}/reviews';
  if (has(value, 'excerpt', 'forum_url')) return '/{kind}/{id}/news';
  if (has(value, 'filler', 'recap')) return '/anime/{id}/episodes';
  if (has(value, 'jpg', 'webp')) return '/{kind}/{id}/pictures';
  if (has(value, 'name', 'url') && Object.keys(value).length === 2) return '/{kind}/{id}/external (or /anime/{id}/streaming)';
  return undefined;
}

/**
 * What to tell of a record a resource rejected, when it is something else: another resource's
 * record, or an element of a Jikan sub-resource response.
 * @param value - The record as read.
 * @param resource - The resource it was read as.
 * @returns `it is a valid characters record: pass --resource characters`, or `undefined`.
 */
export function mismatchHint(value: unknown, resource: ImportKind): string | undefined {
  const other = resourcesOf(value).filter((r) => r !== resource);
  if (other.length > 0) return `it is a valid ${other[0]!} record: pass --resource ${other[0]!}`;
  const part = partLike(value);
  if (part) return `it looks like (an element of) the response of ${part}: import the whole response with --request ${part}`;
  return undefined;
}
