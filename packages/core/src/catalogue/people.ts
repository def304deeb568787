/**
 * Characters and people: one record, its `full` object, appearances and work (SFW of the
 * referenced entries applied), voices, pictures and articles. What both kinds answer alike is
 * written once (`namedParts`), one table a kind.
 * @module
 */
import { isShown, type SfwMode } from '../seam/sfw.js';
import type { Paging } from './queries.js';
import type { CharacterAnime, CharacterFull, CharacterManga, CharacterPicture, CharacterVoice } from '../schemas/character.js';
import type { PersonAnime, PersonFull, PersonManga, PersonPicture, PersonVoice } from '../schemas/person.js';
import type { CatalogueStore } from '../seam/types.js';
import { articlePage } from './posts.js';
import { guarded, joined, jpgOnly, owner, ownedBy, ownedRows, toCharacterMeta, toMeta, toPersonMeta } from './shared.js';

async function characterAnime(records: CatalogueStore, id: number, sfw: SfwMode): Promise<CharacterAnime[]> {
  const rows = await joined(records, 'animeCharacters', 'character', id, 'anime', (r) => r.anime_id);
  return rows.flatMap(([row, a]) => (isShown(a, sfw) ? [{ role: row.role, anime: toMeta(a) }] : []));
}

async function characterManga(records: CatalogueStore, id: number, sfw: SfwMode): Promise<CharacterManga[]> {
  const rows = await joined(records, 'mangaCharacters', 'character', id, 'manga', (r) => r.manga_id);
  return rows.flatMap(([row, m]) => (isShown(m, sfw) ? [{ role: row.role, manga: toMeta(m) }] : []));
}

/** The character's voice actors in cast order, each person and language once. */
async function characterVoices(records: CatalogueStore, id: number): Promise<CharacterVoice[]> {
  const voices = (await ownedRows(records, 'animeCharacters', 'character', id)).flatMap((row) => row.voice_actors);
  const people = await records.getMany('people', voices.map((va) => va.person_id));
  const seen = new Set<string>();
  return voices.flatMap((va, i) => {
    const p = people[i];
    const k = `${va.person_id}:${va.language}`;
    if (!p || seen.has(k)) return [];
    seen.add(k);
    return [{ language: va.language, person: toPersonMeta(p) }];
  });
}

async function personAnime(records: CatalogueStore, id: number, sfw: SfwMode): Promise<PersonAnime[]> {
  const rows = await joined(records, 'animeStaff', 'person', id, 'anime', (r) => r.anime_id);
  return rows.flatMap(([row, a]) => (isShown(a, sfw) ? row.positions.map((position) => ({ position, anime: toMeta(a) })) : []));
}

async function personManga(records: CatalogueStore, id: number, sfw: SfwMode): Promise<PersonManga[]> {
  const rows = await joined(records, 'mangaStaff', 'person', id, 'manga', (r) => r.manga_id);
  return rows.flatMap(([row, m]) => (isShown(m, sfw) ? [{ position: row.position, manga: toMeta(m) }] : []));
}

/** The person's voice roles in cast order (once per voice-actor line), SFW-filtered by the anime. */
async function personVoices(records: CatalogueStore, id: number, sfw: SfwMode): Promise<PersonVoice[]> {
  const roles = (await ownedRows(records, 'animeCharacters', 'person', id)).flatMap((row) =>
    row.voice_actors.filter((va) => va.person_id === id).map(() => row),
  );
  const [anime, characters] = await Promise.all([
    records.getMany('anime', roles.map((r) => r.anime_id)),
    records.getMany('characters', roles.map((r) => r.character_id)),
  ]);
  return roles.flatMap((row, i) => {
    const a = anime[i];
    const c = characters[i];
    return a && c && isShown(a, sfw) ? [{ role: row.role, anime: toMeta(a), character: toCharacterMeta(c) }] : [];
  });
}

/** Pictures of a character or person, JPG only. */
async function picturesOf(records: CatalogueStore, kind: 'character' | 'person', id: number) {
  return ((await records.get('pictures', owner(kind, id)))?.pictures ?? []).map(jpgOnly);
}

/** What characters and people build their own way: their anime and manga, and the voices of `full`. */
interface OwnParts<A, M, V> {
  anime(records: CatalogueStore, id: number, sfw: SfwMode): Promise<A[]>;
  manga(records: CatalogueStore, id: number, sfw: SfwMode): Promise<M[]>;
  voices(records: CatalogueStore, id: number, sfw: SfwMode): Promise<V[]>;
}

/**
 * The parts characters and people both have, by the path segment after the id (`''` is the record
 * itself); each answers `undefined` when there is no such record (the route answers 404).
 * @param collection - `characters` or `people`.
 * @param by - The owner kind of their sub-records.
 * @param own - What the kind builds its own way.
 */
function namedParts<C extends 'characters' | 'people', F, A, M, V, P>(collection: C, by: 'character' | 'person', own: OwnParts<A, M, V>) {
  const get = (records: CatalogueStore, id: number) => records.get(collection, id);
  return {
    '': get,
    async Full(records: CatalogueStore, id: number, sfw: SfwMode): Promise<F | undefined> {
      const record = await get(records, id);
      if (!record) return undefined;
      const [anime, manga, voices] = await Promise.all([own.anime(records, id, sfw), own.manga(records, id, sfw), own.voices(records, id, sfw)]);
      return { ...record, anime, manga, voices } as F;
    },
    Anime: guarded(collection, own.anime),
    Manga: guarded(collection, own.manga),
    Pictures: guarded(collection, (records, id) => picturesOf(records, by, id) as Promise<P[]>),
    Articles: guarded(collection, (records, id, paging: Paging) => articlePage(records, [ownedBy(by, id)], paging)),
  };
}

/** A character's parts: `''`, `Full`, `Anime`, `Manga`, `Pictures`, `Articles` (`GET /v1/characters/{id}/…`). */
export const CHARACTER_PARTS = namedParts<'characters', CharacterFull, CharacterAnime, CharacterManga, CharacterVoice, CharacterPicture>('characters', 'character', {
  anime: characterAnime,
  manga: characterManga,
  voices: (records, id) => characterVoices(records, id),
});

/** A person's parts: `''`, `Full`, `Anime`, `Manga`, `Pictures`, `Articles` (`GET /v1/people/{id}/…`). */
export const PERSON_PARTS = namedParts<'people', PersonFull, PersonAnime, PersonManga, PersonVoice, PersonPicture>('people', 'person', {
  anime: personAnime,
  manga: personManga,
  voices: personVoices,
});

/** The character's voice actors, by language (`GET /v1/characters/{id}/voices`); `undefined` when there is no such character. */
export const characterVoicesOf = guarded('characters', characterVoices);

/** The person's voice roles, SFW-filtered by the anime (`GET /v1/people/{id}/voices`); `undefined` when there is no such person. */
export const personVoicesOf = guarded('people', personVoices);
