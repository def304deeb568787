import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { parseQuery, parsePeriod, readQuery } from './query.js';
import { animeSearchQuery } from '../catalogue/routes/anime.js';

const parse = (query: Record<string, string | string[]>) => parseQuery(animeSearchQuery, query);

function rejects(query: Record<string, string | string[]>): string {
  try {
    parse(query);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error(`expected ${JSON.stringify(query)} to be rejected`);
}

describe('anime search query', () => {
  it('applies the defaults when nothing is given', () => {
    expect(parse({})).toMatchObject({ page: 1, limit: 25, sort: 'asc', sfw: 'off', approval: 'approved' });
  });

  it('treats empty values as defaults', () => {
    expect(parse({ page: '', limit: '', q: '', start_date: '' })).toMatchObject({ page: 1, limit: 25, q: undefined });
  });

  it('ignores unknown keys', () => {
    expect(parse({ kids: 'true', foo: 'bar' })).toMatchObject({ page: 1 });
  });

  describe.each([
    ['page', '1', '1000', ['0', '1001', 'abc', '1.5', '-1'], 'page must be an integer from 1 to 1000'],
    ['limit', '1', '50', ['0', '51', 'ten', '2.0'], 'limit must be an integer from 1 to 50'],
  ])('%s', (name, min, max, bad, message) => {
    it(`accepts both bounds ${min} and ${max}`, () => {
      expect(parse({ [name]: min })).toMatchObject({ [name]: Number(min) });
      expect(parse({ [name]: max })).toMatchObject({ [name]: Number(max) });
    });
    it.each(bad)(`rejects ${name}=%s with 400 naming "${name}"`, (value) => {
      expect(rejects({ [name]: value })).toBe(message);
    });
  });

  describe.each([
    ['score', 'score', '1', '9.99', ['0.99', '10', 'x'], 'score must be a number from 1 to 9.99'],
    ['min_score', 'min_score', '0', '10', ['-0.1', '10.01', 'nan'], 'min_score must be a number from 0 to 10'],
    ['max_score', 'max_score', '1', '10', ['0.5', '11', ''], 'max_score must be a number from 1 to 10'],
  ])('%s', (name, key, min, max, bad, message) => {
    it(`accepts both bounds ${min} and ${max}`, () => {
      expect(parse({ [name]: min })).toMatchObject({ [key]: Number(min) });
      expect(parse({ [name]: max })).toMatchObject({ [key]: Number(max) });
    });
    it.each(bad.filter((v) => v !== ''))(`rejects ${name}=%s with 400 naming "${name}"`, (value) => {
      expect(rejects({ [name]: value })).toBe(message);
    });
  });

  it('rejects min_score above max_score', () => {
    expect(rejects({ min_score: '8', max_score: '7' })).toBe('min_score must be less than or equal to max_score');
    expect(parse({ min_score: '7', max_score: '7' })).toMatchObject({ min_score: 7, max_score: 7 });
  });

  it('accepts q up to 200 characters and rejects 201', () => {
    expect(parse({ q: 'a'.repeat(200) }).q).toHaveLength(200);
    expect(rejects({ q: 'a'.repeat(201) })).toBe('q must be at most 200 characters long');
  });

  it('accepts a one-character q (no minimum length)', () => {
    expect(parse({ q: 'a' }).q).toBe('a');
  });

  it('takes type and rating as case-insensitive comma lists', () => {
    expect(parse({ type: 'TV,movie,tv_special' }).type).toEqual(['TV', 'Movie', 'TV Special']);
    expect(parse({ rating: 'pg13,R17' }).rating).toEqual(['PG-13 - Teens 13 or older', 'R - 17+ (violence & profanity)']);
    expect(parse({ type: ['tv', 'ova'] }).type).toEqual(['TV', 'OVA']);
  });

  it.each([
    [{ type: 'tv,cartoon' }, 'type must be a comma-separated list of: tv, movie, ova, special, ona, music, cm, pv, tv_special (got "cartoon")'],
    [{ rating: 'pg13,rx1' }, 'rating must be a comma-separated list of: g, pg, pg13, r17, r, rx (got "rx1")'],
    [{ status: 'finished' }, 'status must be one of: airing, complete, upcoming'],
    [{ order_by: 'name' }, 'order_by must be one of: mal_id, title, start_date, end_date, episodes, score, scored_by, rank, popularity, members, favorites'],
    [{ sort: 'up' }, 'sort must be one of: asc, desc'],
    [{ letter: 'ab' }, 'letter must be exactly 1 character'],
    [{ genres: '1,x' }, 'genres must be a comma-separated list of positive integer ids (got "x")'],
    [{ genres_exclude: '0' }, 'genres_exclude must be a comma-separated list of positive integer ids (got "0")'],
    [{ producers: '1.5' }, 'producers must be a comma-separated list of positive integer ids (got "1.5")'],
    [{ unapproved: 'yes' }, 'unapproved must be one of: false, true, only (or given bare)'],
    [{ sfw: 'yes' }, 'sfw must be true or false (or given bare)'],
    [{ 'sfw-strict': 'maybe' }, 'sfw-strict must be true or false (or given bare)'],
    [{ start_date: '2020-13' }, 'start_date must be a date as YYYY, YYYY-MM or YYYY-MM-DD'],
    [{ end_date: '2021-02-29' }, 'end_date must be a date as YYYY, YYYY-MM or YYYY-MM-DD'],
    [{ start_date: 'yesterday' }, 'start_date must be a date as YYYY, YYYY-MM or YYYY-MM-DD'],
    [{ page: ['1', '2'] }, 'page must be given once'],
    [{ letter: '\0' }, 'letter must be exactly 1 character of UTF-8 text without U+0000 (NUL) or U+FFFD (the mark of bytes that are not UTF-8)'],
    [{ letter: '\ud800' }, 'letter must be exactly 1 character of UTF-8 text without U+0000 (NUL) or U+FFFD (the mark of bytes that are not UTF-8)'],
    [{ letter: '\ufffd' }, 'letter must be exactly 1 character of UTF-8 text without U+0000 (NUL) or U+FFFD (the mark of bytes that are not UTF-8)'],
    [{ q: 'cowboy\0bebop' }, 'q must be UTF-8 text without U+0000 (NUL) or U+FFFD (the mark of bytes that are not UTF-8)'],
    [{ q: 'half a pair \udc00' }, 'q must be UTF-8 text without U+0000 (NUL) or U+FFFD (the mark of bytes that are not UTF-8)'],
  ])('rejects %j', (query, message) => {
    expect(rejects(query)).toBe(message);
  });

  it.each([
    [{ sfw: '' }, 'normal'],
    [{ sfw: 'true' }, 'normal'],
    [{ sfw: 'TRUE' }, 'normal'],
    [{ sfw: 'false' }, 'off'],
    [{ sfw: '', 'sfw-strict': '' }, 'strict'],
    [{ 'sfw-strict': 'true' }, 'off'],
    [{ sfw: 'false', 'sfw-strict': 'true' }, 'off'],
  ])('reads the SFW flags %j as %s', (query, mode) => {
    expect(parse(query).sfw).toBe(mode);
  });

  it.each([
    [{}, 'approved'],
    [{ unapproved: 'false' }, 'approved'],
    [{ unapproved: '' }, 'all'],
    [{ unapproved: 'true' }, 'all'],
    [{ unapproved: 'only' }, 'unapproved'],
  ])('reads unapproved %j as %s', (query, approval) => {
    expect(parse(query).approval).toBe(approval);
  });

  it('accepts a letter that is one astral character', () => {
    expect(parse({ letter: '𝒜' }).letter).toBe('𝒜');
  });

  it('accepts q holding a surrogate pair and control characters other than NUL', () => {
    expect(parse({ q: '𝒜\tb' }).q).toBe('𝒜\tb');
  });
});

describe('parsePeriod', () => {
  it.each([
    ['2005', { first: '2005-01-01', last: '2005-12-31' }],
    ['2024-02', { first: '2024-02-01', last: '2024-02-29' }],
    ['2023-02', { first: '2023-02-01', last: '2023-02-28' }],
    ['1998-04-03', { first: '1998-04-03', last: '1998-04-03' }],
  ])('reads %s', (text, period) => {
    expect(parsePeriod(text)).toEqual(period);
  });

  it.each(['05', '2005-1', '2005-00', '2005-04-31', '2005/04/01', '2005-04-01T00:00:00Z'])('rejects %s', (text) => {
    expect(parsePeriod(text)).toBeUndefined();
  });
});

describe('readQuery', () => {
  it('parses a query once and hands every later reader the same frozen answer', () => {
    const first = readQuery(animeSearchQuery, 'q=read%20once&type=tv,movie');
    expect(first.raw).toEqual({ q: 'read once', type: 'tv,movie' });
    expect(first.parsed).toMatchObject({ q: 'read once', type: ['TV', 'Movie'], page: 1 });
    expect(readQuery(animeSearchQuery, 'q=read%20once&type=tv,movie')).toBe(first);
    expect(Object.isFrozen(first.parsed)).toBe(true);
    expect(Object.isFrozen((first.parsed as { type: string[] }).type)).toBe(true);
    expect(() => {
      (first.parsed as { page: number }).page = 2;
    }).toThrow(TypeError);
  });

  it('keeps each schema’s answer apart, and a route without one gets the raw query', () => {
    const none = readQuery(undefined, 'q=apart');
    expect(none.parsed).toBeUndefined();
    expect(none.raw).toEqual({ q: 'apart' });
    expect(readQuery(animeSearchQuery, 'q=apart').parsed).toMatchObject({ q: 'apart' });
  });

  it('answers an invalid query with the 400 every time', () => {
    for (let i = 0; i < 2; i++) expect(() => readQuery(animeSearchQuery, 'limit=99')).toThrow(/limit must be an integer from 1 to 50/);
  });

  it('remembers an invalid query with its error, parsed once', () => {
    const thrown = () => {
      try {
        readQuery(animeSearchQuery, 'limit=98');
      } catch (error) {
        return error;
      }
      throw new Error('no error');
    };
    const first = thrown();
    expect(first).toMatchObject({ status: 400, message: 'limit must be an integer from 1 to 50' });
    expect(thrown()).toBe(first);
    // Another schema reads the same text afresh.
    expect(readQuery(undefined, 'limit=98').raw).toEqual({ limit: '98' });
  });

  it('does not remember long queries', () => {
    const long = `q=x&producers=${'1,'.repeat(550)}1`;
    expect(readQuery(animeSearchQuery, long)).not.toBe(readQuery(animeSearchQuery, long));
  });
});
