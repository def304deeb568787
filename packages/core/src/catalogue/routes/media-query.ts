/**
 * The parameters an anime and a manga search share (`GET /v1/anime`, `GET /v1/manga`), in the
 * order the spec lists them, with the vocabularies of the kind table (`catalogue/kinds.ts`); each
 * kind adds its own parameters at two places (after `status`; after `genres_exclude`).
 * @module
 */
import type { z } from 'zod';
import { dateParam, enumListParam, enumParam, idListParam, letterParam, numberParam, textParam } from '../../edge/query.js';
import { sfwMode } from '../../seam/sfw.js';
import type { MediaSearch } from '../queries.js';
import { orderByValues } from '../kinds.js';
import { pagingShape, sfwShape, unapprovedParam } from './params.js';

/**
 * The shape of a media search query.
 * @param kind - The kind's vocabularies.
 * @param afterStatus - The kind's own parameters after `status` (anime: `rating`).
 * @param afterGenres - The kind's own parameters after `genres_exclude` (`producers`, `magazines`).
 */
export function mediaSearchShape<
  T extends Record<string, string>,
  S extends Record<string, string>,
  O extends Record<string, string>,
  A extends z.ZodRawShape,
  B extends z.ZodRawShape,
>(kind: { types: T; statuses: S; orderBy: O }, afterStatus: A, afterGenres: B) {
  return {
    q: textParam('q', 200),
    ...pagingShape(),
    type: enumListParam('type', kind.types),
    status: enumParam('status', kind.statuses),
    ...afterStatus,
    ...sfwShape(),
    unapproved: unapprovedParam('unapproved'),
    score: numberParam('score', 1, 9.99),
    min_score: numberParam('min_score', 0, 10),
    max_score: numberParam('max_score', 1, 10),
    genres: idListParam('genres'),
    genres_exclude: idListParam('genres_exclude'),
    ...afterGenres,
    order_by: enumParam('order_by', orderByValues(kind.orderBy)),
    sort: enumParam('sort', { asc: 'asc', desc: 'desc' }),
    letter: letterParam('letter'),
    start_date: dateParam('start_date'),
    end_date: dateParam('end_date'),
  };
}

/** The shared parameters as parsed: the output of `mediaSearchShape`'s parameters, whatever the kind's vocabularies. */
type ParsedMedia = z.output<z.ZodObject<ReturnType<typeof mediaSearchShape<Vocabulary, Vocabulary, Vocabulary, NoShape, NoShape>>>>;
type Vocabulary = Record<string, string>;
type NoShape = Record<never, never>;

/**
 * The checks across parameters both kinds make: a score range and a date range the right way round.
 * @param v - The parsed query.
 * @param ctx - zod's refinement context.
 */
export function checkMediaRanges(v: ParsedMedia, ctx: z.RefinementCtx): void {
  if (v.min_score !== undefined && v.max_score !== undefined && v.min_score > v.max_score) {
    ctx.addIssue({ code: 'custom', message: 'min_score must be less than or equal to max_score' });
  }
  if (v.start_date && v.end_date && v.start_date.first > v.end_date.last) {
    ctx.addIssue({ code: 'custom', message: 'start_date must not be after end_date' });
  }
}

/**
 * The search both kinds share, from the parsed query.
 * @param v - The parsed query.
 */
export function toMediaSearch<O extends string>(v: ParsedMedia): MediaSearch<O> {
  return {
    q: v.q,
    page: v.page,
    limit: v.limit,
    type: v.type,
    status: v.status,
    sfw: sfwMode(v.sfw, v['sfw-strict']),
    approval: v.unapproved,
    score: v.score,
    min_score: v.min_score,
    max_score: v.max_score,
    genres: v.genres,
    genres_exclude: v.genres_exclude,
    order_by: v.order_by as O | undefined,
    sort: v.sort ?? 'asc',
    letter: v.letter,
    start_date: v.start_date,
    end_date: v.end_date,
  };
}
