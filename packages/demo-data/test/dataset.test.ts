import { describe, expect, it } from 'vitest';
import { animeSchema } from '../../core/src/schemas/anime.js';
import { DEMO_NOTICE, demoAnime, demoData } from '../src/index.js';

const count = (pred: (a: (typeof demoAnime)[number]) => boolean) => demoAnime.filter(pred).length;

describe('demo anime dataset', () => {
  it('has at least 320 records and exports them as demoData.anime', () => {
    expect(demoAnime.length).toBeGreaterThanOrEqual(320);
    expect(demoData.anime).toBe(demoAnime);
    expect(DEMO_NOTICE).toMatch(/MyAnimeList/);
  });

  it('every record matches the anime schema exactly (keys and their order)', () => {
    const keys = Object.keys(animeSchema.shape);
    for (const a of demoAnime) {
      const parsed = animeSchema.strict().safeParse(a);
      expect(parsed.success, `mal_id ${a.mal_id}: ${parsed.error?.message}`).toBe(true);
      expect(Object.keys(a)).toEqual(keys);
    }
  });

  it('has unique mal_ids in ascending order', () => {
    const ids = demoAnime.map((a) => a.mal_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
  });

  it('covers every type', () => {
    for (const type of ['TV', 'Movie', 'OVA', 'Special', 'ONA', 'Music']) {
      expect(count((a) => a.type === type), type).toBeGreaterThanOrEqual(type === 'Music' ? 3 : 8);
    }
    const allowed = new Set(['TV', 'Movie', 'OVA', 'Special', 'ONA', 'Music', 'CM', 'PV', 'TV Special']);
    expect(demoAnime.every((a) => allowed.has(a.type))).toBe(true);
  });

  it('covers every status, with airing consistent', () => {
    expect(count((a) => a.status === 'Finished Airing')).toBeGreaterThanOrEqual(100);
    expect(count((a) => a.status === 'Currently Airing')).toBeGreaterThanOrEqual(10);
    expect(count((a) => a.status === 'Not yet aired')).toBeGreaterThanOrEqual(10);
    for (const a of demoAnime) expect(a.airing).toBe(a.status === 'Currently Airing');
  });

  it('covers every rating, including R+ and Rx', () => {
    const ratings = [
      'G - All Ages',
      'PG - Children',
      'PG-13 - Teens 13 or older',
      'R - 17+ (violence & profanity)',
      'R+ - Mild Nudity',
      'Rx - Hentai',
    ];
    for (const r of ratings) expect(count((a) => a.rating === r), r).toBeGreaterThanOrEqual(5);
    expect(count((a) => a.rating === null)).toBeGreaterThanOrEqual(1);
    expect(demoAnime.every((a) => a.rating === null || ratings.includes(a.rating))).toBe(true);
  });

  it('keeps Ecchi, Erotica and Hentai in explicit_genres only', () => {
    const explicit = ['Ecchi', 'Erotica', 'Hentai'];
    for (const g of explicit) {
      expect(count((a) => a.explicit_genres.some((x) => x.name === g)), g).toBeGreaterThanOrEqual(3);
    }
    expect(demoAnime.every((a) => a.genres.every((x) => !explicit.includes(x.name)))).toBe(true);
  });

  it('has null fields, unapproved entries and rich titles', () => {
    expect(count((a) => a.title_english === null)).toBeGreaterThanOrEqual(5);
    expect(count((a) => a.episodes === null)).toBeGreaterThanOrEqual(3);
    expect(count((a) => a.score === null)).toBeGreaterThanOrEqual(3);
    expect(count((a) => a.rank === null)).toBeGreaterThanOrEqual(3);
    expect(count((a) => !a.approved)).toBe(8);
    expect(count((a) => a.title_english !== null)).toBeGreaterThanOrEqual(150);
    expect(count((a) => a.title_synonyms.length > 0)).toBeGreaterThanOrEqual(110);
  });

  it('includes well-known franchises', () => {
    const titles = new Set(demoAnime.map((a) => a.title));
    for (const t of ['Cowboy Bebop', 'Naruto', 'One Piece', 'Death Note', 'Shingeki no Kyojin', 'Sousou no Frieren']) {
      expect(titles.has(t), t).toBe(true);
    }
  });

  it('has short composed synopses and no background text', () => {
    for (const a of demoAnime) {
      expect(a.synopsis === null || a.synopsis.length <= 200, `mal_id ${a.mal_id}`).toBe(true);
      expect(a.background).toBeNull();
    }
  });

  it('has parseable URLs everywhere', () => {
    const urls = (a: (typeof demoAnime)[number]) => [
      a.url,
      ...Object.values(a.images.jpg),
      ...Object.values(a.images.webp),
      a.trailer.url,
      a.trailer.embed_url,
      ...Object.values(a.trailer.images),
      ...[...a.producers, ...a.licensors, ...a.studios, ...a.genres, ...a.explicit_genres, ...a.themes, ...a.demographics].map(
        (r) => r.url,
      ),
    ];
    for (const a of demoAnime) {
      for (const u of urls(a)) if (u !== null) expect(() => new URL(u), `mal_id ${a.mal_id}: ${u}`).not.toThrow();
    }
  });
});
