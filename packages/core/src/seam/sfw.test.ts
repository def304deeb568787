import { describe, expect, it } from 'vitest';
import { ACTION, ECCHI, EROTICA, HENTAI } from '../../test/fixtures.js';
import { isShown, sfwMode, type SfwMode } from './sfw.js';

const cases: Array<[string, Parameters<typeof isShown>[0], Record<SfwMode, boolean>]> = [
  ['a PG-13 action entry', { rating: 'PG-13 - Teens 13 or older', genres: [ACTION] }, { off: true, normal: true, strict: true }],
  ['an R+ entry', { rating: 'R+ - Mild Nudity' }, { off: true, normal: false, strict: false }],
  ['an Rx entry', { rating: 'Rx - Hentai' }, { off: true, normal: false, strict: false }],
  ['an R 17+ entry', { rating: 'R - 17+ (violence & profanity)' }, { off: true, normal: true, strict: true }],
  ['a Hentai-tagged entry', { rating: null, explicit_genres: [HENTAI] }, { off: true, normal: false, strict: false }],
  ['an Erotica-tagged entry', { explicit_genres: [EROTICA] }, { off: true, normal: false, strict: false }],
  ['a Hentai tag filed under genres', { genres: [HENTAI] }, { off: true, normal: false, strict: false }],
  ['an Ecchi-tagged entry', { rating: 'PG-13 - Teens 13 or older', explicit_genres: [ECCHI] }, { off: true, normal: true, strict: false }],
  ['a manga with no rating', { genres: [ACTION] }, { off: true, normal: true, strict: true }],
];

describe('SFW filtering', () => {
  it.each(cases)('%s', (_name, entry, expected) => {
    for (const mode of ['off', 'normal', 'strict'] as const) expect(isShown(entry, mode), mode).toBe(expected[mode]);
  });

  it('makes sfw-strict take effect only together with sfw', () => {
    expect(sfwMode(false, true)).toBe('off');
    expect(sfwMode(true, false)).toBe('normal');
    expect(sfwMode(true, true)).toBe('strict');
  });
});
