import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { COLLECTIONS, type CollectionName } from '../../core/src/seam/collections.js';
import { sfwClass } from '../../core/src/seam/sfw.js';
import { demoData, demoSfwTargets } from '../src/index.js';

/**
 * Every collection of records but anime (dataset.test.ts) and the bare deleted ids, with the schema
 * a store validates its records by (`COLLECTIONS`).
 */
const collections = (Object.keys(COLLECTIONS) as CollectionName[])
  .filter((name) => name !== 'anime' && !name.startsWith('deleted'))
  .map((name) => [name, demoData[name] as readonly unknown[] | undefined, COLLECTIONS[name].schema as z.ZodObject] as const);

const ids = (list: readonly { mal_id: number }[] | undefined) => new Set((list ?? []).map((r) => r.mal_id));
const animeIds = ids(demoData.anime);
const mangaIds = ids(demoData.manga);
const characterIds = ids(demoData.characters);
const personIds = ids(demoData.people);
const exists = (kind: string, id: number) =>
  (kind === 'anime' ? animeIds : kind === 'manga' ? mangaIds : kind === 'character' ? characterIds : kind === 'person' ? personIds : new Set<number>()).has(id);

describe('demo catalogue collections', () => {
  it.each(collections)('every %s record parses with its zod schema as stored: no extra keys, none missing', (name, list, schema) => {
    expect(list?.length, name).toBeGreaterThan(0);
    for (const record of list ?? []) {
      const parsed = schema.strict().safeParse(record);
      expect(parsed.success, `${name} ${JSON.stringify(record).slice(0, 120)}: ${parsed.error?.message}`).toBe(true);
      // An import fills what Jikan leaves out; a record served as it is must already hold it.
      expect(parsed.data, name).toEqual(record);
    }
  });

  it('has at least 30 manga, with unique ids across every collection of records', () => {
    expect(demoData.manga!.length).toBeGreaterThanOrEqual(30);
    for (const [name, list] of collections) {
      const keyed = (list ?? []) as { mal_id?: number }[];
      if (!['manga', 'characters', 'people', 'producers', 'magazines', 'news', 'articles', 'stacks', 'reviews'].includes(name)) continue;
      expect(new Set(keyed.map((r) => r.mal_id)).size, name).toBe(keyed.length);
    }
  });

  it('links cast, staff, relations and per-entry records only to records that exist', () => {
    for (const r of demoData.animeCharacters!) {
      expect(exists('anime', r.anime_id) && exists('character', r.character_id)).toBe(true);
      for (const va of r.voice_actors) expect(exists('person', va.person_id), `person ${va.person_id}`).toBe(true);
    }
    for (const r of demoData.mangaCharacters!) expect(exists('manga', r.manga_id) && exists('character', r.character_id)).toBe(true);
    for (const r of demoData.animeStaff!) expect(exists('anime', r.anime_id) && exists('person', r.person_id)).toBe(true);
    for (const r of demoData.mangaStaff!) expect(exists('manga', r.manga_id) && exists('person', r.person_id)).toBe(true);
    for (const r of demoData.relations!) expect(exists(r.from_type, r.from_id) && exists(r.to_type, r.to_id), JSON.stringify(r)).toBe(true);
    for (const r of demoData.episodes!) expect(exists('anime', r.anime_id)).toBe(true);
    for (const r of demoData.videos!) expect(exists('anime', r.anime_id)).toBe(true);
    for (const r of demoData.forum!) expect(exists('anime', r.anime_id)).toBe(true);
    for (const r of demoData.pictures!) expect(exists(r.type, r.mal_id)).toBe(true);
    for (const m of demoData.manga!) for (const a of m.authors) expect(exists('person', a.mal_id), `author ${a.mal_id}`).toBe(true);
    const magazineIds = ids(demoData.magazines);
    for (const m of demoData.manga!) for (const s of m.serializations) expect(magazineIds.has(s.mal_id)).toBe(true);
  });

  it('links community content only to records that exist', () => {
    for (const r of demoData.recommendations!) for (const id of r.entry_ids) expect(exists(r.type, id)).toBe(true);
    for (const r of demoData.reviews!) expect(exists(r.type, r.entry_id)).toBe(true);
    const newsTagIds = ids(demoData.newsTags);
    for (const n of demoData.news!) {
      for (const id of n.anime_ids) expect(exists('anime', id)).toBe(true);
      for (const id of n.manga_ids) expect(exists('manga', id)).toBe(true);
      for (const id of n.tag_ids) expect(newsTagIds.has(id)).toBe(true);
    }
    const articleTagIds = ids(demoData.articleTags);
    for (const a of demoData.articles!) {
      for (const id of a.anime_ids) expect(exists('anime', id)).toBe(true);
      for (const id of a.manga_ids) expect(exists('manga', id)).toBe(true);
      for (const id of a.character_ids) expect(exists('character', id)).toBe(true);
      for (const id of a.person_ids) expect(exists('person', id)).toBe(true);
      for (const id of a.tag_ids) expect(articleTagIds.has(id)).toBe(true);
    }
    for (const s of demoData.stacks!) for (const e of s.entries) expect(exists(e.type, e.mal_id)).toBe(true);
  });

  it('keeps deleted ids out of the live catalogue', () => {
    expect(demoData.deletedAnimeIds!.length).toBeGreaterThan(0);
    expect(demoData.deletedAnimeIds!.some((id) => animeIds.has(id))).toBe(false);
    expect(demoData.deletedMangaIds!.some((id) => mangaIds.has(id))).toBe(false);
  });

  it('counts each producer and magazine exactly as the entries reference them', () => {
    for (const p of demoData.producers!) {
      const n = demoData.anime.filter((a) => [...a.producers, ...a.licensors, ...a.studios].some((r) => r.mal_id === p.mal_id)).length;
      expect(p.count, p.titles[0]?.title).toBe(n);
    }
    for (const m of demoData.magazines!) {
      expect(m.count).toBe(demoData.manga!.filter((x) => x.serializations.some((s) => s.mal_id === m.mal_id)).length);
    }
  });

  it('names SFW targets of each class, all linked from the safe hub anime', () => {
    const anime = (id: number | undefined) => demoData.anime.find((a) => a.mal_id === id)!;
    expect(sfwClass(anime(demoSfwTargets.hubAnime))).toBe(0);
    for (const k of ['rxAnime', 'eroticaAnime', 'rPlusAnime']) expect(sfwClass(anime(demoSfwTargets[k])), k).toBe(2);
    expect(sfwClass(anime(demoSfwTargets.ecchiAnime))).toBe(1);
    expect(anime(demoSfwTargets.rxAnime).rating).toBe('Rx - Hentai');
    const hubRecs = demoData.recommendations!.filter((r) => r.entry_ids.includes(demoSfwTargets.hubAnime!));
    for (const k of ['rxAnime', 'eroticaAnime', 'rPlusAnime', 'ecchiAnime']) {
      expect(hubRecs.some((r) => r.entry_ids.includes(demoSfwTargets[k]!)), k).toBe(true);
    }
    const manga = (id: number | undefined) => demoData.manga!.find((m) => m.mal_id === id)!;
    expect(sfwClass(manga(demoSfwTargets.rxManga))).toBe(2);
    expect(sfwClass(manga(demoSfwTargets.ecchiManga))).toBe(1);
  });
});
