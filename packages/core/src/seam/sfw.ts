/**
 * SFW filtering (spec, "SFW filtering" rules 1–2): one pure function for every endpoint.
 * @module
 */
import type { Reference } from '../schemas/common.js';

/** How strictly to filter: off, normal (`sfw`) or strict (`sfw` + `sfw-strict`). */
export type SfwMode = 'off' | 'normal' | 'strict';

/** The fields SFW filtering reads. Anime carry `rating`; manga have none. */
export interface SfwSubject {
  rating?: string | null;
  genres?: readonly Reference[];
  explicit_genres?: readonly Reference[];
  themes?: readonly Reference[];
  demographics?: readonly Reference[];
}

// MAL genre ids, the same for anime and manga (mal-genres.json): Hentai 12, Erotica 49, Ecchi 9.
const ADULT_GENRES = new Set([12, 49]);
const ECCHI = 9;
const ADULT_RATINGS = new Set(['R+ - Mild Nudity', 'Rx - Hentai']);

/** What SFW filtering thinks of an entry: 0 safe, 1 excluded only in strict mode (Ecchi), 2 always excluded. */
export type SfwClass = 0 | 1 | 2;

/**
 * Classifies an entry once, so lists can filter by a number compare.
 * @param entry - An anime or manga record (or a reference to one carrying its tags).
 * @returns 2 for R+/Rx ratings or Hentai/Erotica tags, 1 for Ecchi, else 0.
 */
export function sfwClass(entry: SfwSubject): SfwClass {
  if (entry.rating && ADULT_RATINGS.has(entry.rating)) return 2;
  let ecchi = false;
  for (const list of [entry.genres, entry.explicit_genres, entry.themes, entry.demographics]) {
    if (!list) continue;
    for (const tag of list) {
      if (ADULT_GENRES.has(tag.mal_id)) return 2;
      if (tag.mal_id === ECCHI) ecchi = true;
    }
  }
  return ecchi ? 1 : 0;
}

/**
 * Whether an entry of the given class is shown in the given mode.
 * @param cls - From {@link sfwClass}.
 * @param mode - The request's SFW mode.
 */
export function passesSfw(cls: SfwClass, mode: SfwMode): boolean {
  return mode === 'off' || cls === 0 || (cls === 1 && mode === 'normal');
}

/**
 * Whether an entry is shown in the given mode.
 * @param entry - The record.
 * @param mode - The request's SFW mode.
 * @example
 * ```ts
 * isShown({ rating: 'Rx - Hentai' }, 'normal'); // false
 * ```
 */
export function isShown(entry: SfwSubject, mode: SfwMode): boolean {
  return passesSfw(sfwClass(entry), mode);
}

/**
 * The mode from the two flags: `sfw-strict` only takes effect when `sfw` is on (rule 2).
 * @param sfw - The `sfw` flag.
 * @param strict - The `sfw-strict` flag.
 */
export function sfwMode(sfw: boolean, strict: boolean): SfwMode {
  return sfw ? (strict ? 'strict' : 'normal') : 'off';
}
