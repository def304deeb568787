/**
 * Characters and people: search, one record, its `full` object, appearances and work (SFW of the
 * referenced entries applied), voices, pictures and articles. What both kinds answer alike is
 * written once (`namedParts`, named per kind).
 * @module
 */
import { isShown, type SfwMode } from '../seam/sfw.js';
import type { Catalogue, KindMethods, NamedParts, Paging } from './store.js';
import type { Character, CharacterAnime, CharacterFull, CharacterManga, CharacterPicture, CharacterVoice } from '../schemas/character.js';
import type { Person, PersonAnime, PersonFull, PersonManga, PersonPicture, PersonVoice } from '../schemas/person.js';
import type { CatalogueStore } from '../seam/types.js';
import { searchNamed } from './named.js';
import { articlePage } from './posts.js';
import { guarded, joined, jpgOnly, named, owner, ownedBy, ownedRows, toCharacterMeta, toMeta, toPersonMeta } from './shared.js';

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

/** What characters and people build their own way: their anime, manga and voices. */
interface OwnParts<A, M, V> {
  anime(id: number, sfw: SfwMode): Promise<A[]>;
  manga(id: number, sfw: SfwMode): Promise<M[]>;
  voices(id: number, sfw: SfwMode): Promise<V[]>;
}

/**
 * The parts characters and people both have, over a record store.
 * @param records - The record store.
 * @param collection - `characters` or `people`.
 * @param by - The owner kind of their sub-records.
 * @param own - What the kind builds its own way.
 */
function namedParts<R extends object, F, A, M, V, P>(
  records: CatalogueStore,
  collection: 'characters' | 'people',
  by: 'character' | 'person',
  own: OwnParts<A, M, V>,
): NamedParts<R, F, A, M, P> {
  const ofRecord = guarded(records, collection);
  const get = (id: number) => records.get(collection, id) as Promise<R | undefined>;
  return {
    '': get,
    async Full(id, sfw) {
      const record = await get(id);
      if (!record) return undefined;
      const [anime, manga, voices] = await Promise.all([own.anime(id, sfw), own.manga(id, sfw), own.voices(id, sfw)]);
      return { ...record, anime, manga, voices } as F;
    },
    Anime: ofRecord(own.anime),
    Manga: ofRecord(own.manga),
    Pictures: ofRecord((id) => picturesOf(records, by, id) as Promise<P[]>),
    Articles: ofRecord((id, paging: Paging) => articlePage(records, [ownedBy(by, id)], paging)),
  };
}

/** The character and person methods of `Catalogue`. */
export type NamedMethods = Pick<
  Catalogue,
  keyof KindMethods<'Character' | 'Person', NamedParts<never, never, never, never, never>> | 'searchCharacters' | 'searchPeople' | 'getCharacterVoices' | 'getPersonVoices'
>;

/**
 * The character and person methods over a record store.
 * @param records - The record store.
 */
export function namedMethods(records: CatalogueStore): NamedMethods {
  const voices = (id: number) => characterVoices(records, id);
  const character = namedParts<Character, CharacterFull, CharacterAnime, CharacterManga, CharacterVoice, CharacterPicture>(records, 'characters', 'character', {
    anime: (id, sfw) => characterAnime(records, id, sfw),
    manga: (id, sfw) => characterManga(records, id, sfw),
    voices,
  });
  const person = namedParts<Person, PersonFull, PersonAnime, PersonManga, PersonVoice, PersonPicture>(records, 'people', 'person', {
    anime: (id, sfw) => personAnime(records, id, sfw),
    manga: (id, sfw) => personManga(records, id, sfw),
    voices: (id, sfw) => personVoices(records, id, sfw),
  });
  return {
    ...named('Character', character),
    ...named('Person', person),
    searchCharacters: (s) => searchNamed(records, 'characters', s),
    searchPeople: (s) => searchNamed(records, 'people', s),
    getCharacterVoices: guarded(records, 'characters')(voices),
    getPersonVoices: guarded(records, 'people')((id, sfw: SfwMode) => personVoices(records, id, sfw)),
  };
}
