/**
 * Characters and people: search, one record, its `full` object, appearances and work (SFW of the
 * referenced entries applied), voices, pictures and articles.
 * @module
 */
import { isShown, type SfwMode } from '../sfw.js';
import type { Catalogue } from '../store.js';
import type { CharacterAnime, CharacterManga, CharacterVoice } from '../schemas/character.js';
import type { PersonAnime, PersonManga, PersonVoice } from '../schemas/person.js';
import type { CatalogueStore } from '../seam/types.js';
import { searchNamed } from './named.js';
import { articlePage } from './posts.js';
import { ALL, jpgOnly, owner, ownedBy, toCharacterMeta, toMeta, toPersonMeta } from './shared.js';

/** The rows of a cast or staff collection that belong to a character or person, in stored order. */
async function rowsOf<C extends 'animeCharacters' | 'mangaCharacters' | 'animeStaff' | 'mangaStaff'>(
  records: CatalogueStore,
  collection: C,
  kind: 'character' | 'person',
  id: number,
) {
  return (await records.query(collection, { where: [ownedBy(kind, id)], ...ALL })).data;
}

async function characterAnime(records: CatalogueStore, id: number, sfw: SfwMode): Promise<CharacterAnime[]> {
  const rows = await rowsOf(records, 'animeCharacters', 'character', id);
  const anime = await records.getMany('anime', rows.map((r) => r.anime_id));
  return rows.flatMap((row, i) => {
    const a = anime[i];
    return a && isShown(a, sfw) ? [{ role: row.role, anime: toMeta(a) }] : [];
  });
}

async function characterManga(records: CatalogueStore, id: number, sfw: SfwMode): Promise<CharacterManga[]> {
  const rows = await rowsOf(records, 'mangaCharacters', 'character', id);
  const manga = await records.getMany('manga', rows.map((r) => r.manga_id));
  return rows.flatMap((row, i) => {
    const m = manga[i];
    return m && isShown(m, sfw) ? [{ role: row.role, manga: toMeta(m) }] : [];
  });
}

/** The character's voice actors in cast order, each person and language once. */
async function characterVoices(records: CatalogueStore, id: number): Promise<CharacterVoice[]> {
  const voices = (await rowsOf(records, 'animeCharacters', 'character', id)).flatMap((row) => row.voice_actors);
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
  const rows = await rowsOf(records, 'animeStaff', 'person', id);
  const anime = await records.getMany('anime', rows.map((r) => r.anime_id));
  return rows.flatMap((row, i) => {
    const a = anime[i];
    return a && isShown(a, sfw) ? row.positions.map((position) => ({ position, anime: toMeta(a) })) : [];
  });
}

async function personManga(records: CatalogueStore, id: number, sfw: SfwMode): Promise<PersonManga[]> {
  const rows = await rowsOf(records, 'mangaStaff', 'person', id);
  const manga = await records.getMany('manga', rows.map((r) => r.manga_id));
  return rows.flatMap((row, i) => {
    const m = manga[i];
    return m && isShown(m, sfw) ? [{ position: row.position, manga: toMeta(m) }] : [];
  });
}

/** The person's voice roles in cast order (once per voice-actor line), SFW-filtered by the anime. */
async function personVoices(records: CatalogueStore, id: number, sfw: SfwMode): Promise<PersonVoice[]> {
  const roles = (await rowsOf(records, 'animeCharacters', 'person', id)).flatMap((row) =>
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

/** The character methods of `Catalogue`. */
export type CharacterMethods = Pick<
  Catalogue,
  'getCharacter' | 'searchCharacters' | 'getCharacterFull' | 'getCharacterAnime' | 'getCharacterManga' | 'getCharacterVoices' | 'getCharacterPictures' | 'getCharacterArticles'
>;

/**
 * The character methods over a record store.
 * @param records - The record store.
 */
export function characterMethods(records: CatalogueStore): CharacterMethods {
  const exists = async (id: number) => (await records.get('characters', id)) !== undefined;
  return {
    getCharacter: (id) => records.get('characters', id),
    searchCharacters: (s) => searchNamed(records, 'characters', s),
    async getCharacterFull(id, sfw) {
      const c = await records.get('characters', id);
      if (!c) return undefined;
      const [anime, manga, voices] = await Promise.all([characterAnime(records, id, sfw), characterManga(records, id, sfw), characterVoices(records, id)]);
      return { ...c, anime, manga, voices };
    },
    getCharacterAnime: async (id, sfw) => ((await exists(id)) ? characterAnime(records, id, sfw) : undefined),
    getCharacterManga: async (id, sfw) => ((await exists(id)) ? characterManga(records, id, sfw) : undefined),
    getCharacterVoices: async (id) => ((await exists(id)) ? characterVoices(records, id) : undefined),
    getCharacterPictures: async (id) => ((await exists(id)) ? picturesOf(records, 'character', id) : undefined),
    getCharacterArticles: async (id, paging) => ((await exists(id)) ? articlePage(records, [ownedBy('character', id)], paging) : undefined),
  };
}

/** The person methods of `Catalogue`. */
export type PersonMethods = Pick<
  Catalogue,
  'getPerson' | 'searchPeople' | 'getPersonFull' | 'getPersonAnime' | 'getPersonManga' | 'getPersonVoices' | 'getPersonPictures' | 'getPersonArticles'
>;

/**
 * The person methods over a record store.
 * @param records - The record store.
 */
export function personMethods(records: CatalogueStore): PersonMethods {
  const exists = async (id: number) => (await records.get('people', id)) !== undefined;
  return {
    getPerson: (id) => records.get('people', id),
    searchPeople: (s) => searchNamed(records, 'people', s),
    async getPersonFull(id, sfw) {
      const p = await records.get('people', id);
      if (!p) return undefined;
      const [anime, manga, voices] = await Promise.all([personAnime(records, id, sfw), personManga(records, id, sfw), personVoices(records, id, sfw)]);
      return { ...p, anime, manga, voices };
    },
    getPersonAnime: async (id, sfw) => ((await exists(id)) ? personAnime(records, id, sfw) : undefined),
    getPersonManga: async (id, sfw) => ((await exists(id)) ? personManga(records, id, sfw) : undefined),
    getPersonVoices: async (id, sfw) => ((await exists(id)) ? personVoices(records, id, sfw) : undefined),
    getPersonPictures: async (id) => ((await exists(id)) ? picturesOf(records, 'person', id) : undefined),
    getPersonArticles: async (id, paging) => ((await exists(id)) ? articlePage(records, [ownedBy('person', id)], paging) : undefined),
  };
}
