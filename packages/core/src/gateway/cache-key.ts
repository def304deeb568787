/**
 * Normalized cache keys: one query, one entry. The key of a request is its canonical path and the
 * query as its route parsed it (defaults filled in, parameter order and spellings gone: `?sfw`,
 * `?sfw=` and `?sfw=true` are one key, as are `?page=1&limit=25`, `?limit=25&page=1` and no query),
 * so that two spellings never hold two answers that could differ. A small bounded map from raw
 * targets to keys keeps a hit from parsing the query again.
 * @module
 */
import type { z } from 'zod';
import { readQuery } from '../edge/query.js';

/** What the key normalizer needs of the route the pipeline matched. */
export interface KeyedRoute {
  /** Its path pattern (itty syntax). */
  readonly path: string;
  /** Its query schema; without one, the query is not read and never part of the key. */
  readonly query?: z.ZodType | undefined;
}

/** Most raw targets remembered with their key. */
const ALIASES = 8_192;
/** Longest raw target remembered. */
const ALIAS_CHARS = 1_024;

/** JSON with object keys sorted, `undefined` left out: one text per value. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) if (record[key] !== undefined) parts.push(`${JSON.stringify(key)}:${canonical(record[key])}`);
  return `{${parts.join(',')}}`;
}

/**
 * Makes the cache-key function of an app's routes.
 * @returns A function from the route the pipeline matched, the canonical path and the raw query
 *   to the key; `undefined` when the query does not parse (the route answers 400, which is never
 *   cached) or no route matched.
 */
export function createCacheKeys(): (route: KeyedRoute | undefined, path: string, query: string) => string | undefined {
  // Keyed by path, then by query: a hit looks the two strings up as they came, where one key of
  // `path?query` was a new string to join and hash on every request (~0.3 µs of a ~4 µs hit on Node 20).
  const aliases = new Map<string, Map<string, string>>();
  let count = 0;
  return (route, path, query) => {
    if (!route) return undefined;
    const byQuery = aliases.get(path);
    const known = byQuery?.get(query);
    if (known !== undefined) return known;
    let key = path;
    if (route.query) {
      let parsed: unknown;
      try {
        parsed = readQuery(route.query, query).parsed;
      } catch {
        return undefined;
      }
      key = `${path}?${canonical(parsed)}`;
    }
    if (path.length + query.length < ALIAS_CHARS) {
      if (count >= ALIASES) {
        // The oldest path's oldest query goes first.
        const [oldestPath, oldest] = aliases.entries().next().value!;
        oldest.delete(oldest.keys().next().value!);
        if (oldest.size === 0) aliases.delete(oldestPath);
        count--;
      }
      let queries = aliases.get(path);
      if (queries === undefined) aliases.set(path, (queries = new Map()));
      queries.set(query, key);
      count++;
    }
    return key;
  };
}
