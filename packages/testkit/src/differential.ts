/**
 * A differential contract over HTTP: two apps (e.g. one catalogue over two stores) must answer every
 * route of the OpenAPI document byte for byte the same. The requests are derived from the document:
 * each path with its parameters filled from the demo dataset (and an unknown id), each documented
 * query parameter with valid, edge (a page past the end) and invalid values, SFW modes, and a few
 * combinations. Searches by `q` are the one exception: a store may rank fuzzy hits its own way, so
 * there both must answer 200, and an exact title must be the same first entry.
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiDocument, OPENAPI_PATH, type JsonObject } from '@catalogue-api/core';
import { COLLECTION_NAMES, fieldValues, premiere, type CollectionName } from '@catalogue-api/core/store';
import { demoData, demoSfwTargets } from '@catalogue-api/demo-data';

/** A Web-standard request handler, such as `app.fetch`. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** The two apps a differential run compares. */
export interface DifferentialApps {
  /** The reference. */
  a: FetchHandler;
  /** The app under test. */
  b: FetchHandler;
}

/** One request of a differential run, and how its answers are compared. */
export interface DifferentialRequest {
  /** The OpenAPI path it exercises (`/v1/anime/{id}`). */
  route: string;
  /** The request target (`/v1/anime/20?sfw`). */
  target: string;
  /**
   * `bytes`: same status and body; `ok`: both 200 (a fuzzy search); `first`: both 200 with the same
   * first entry (a search for an exact title).
   */
  compare: 'bytes' | 'ok' | 'first';
}

/** Options of {@link defineDifferentialContract}. */
export interface DifferentialContractOptions {
  /** Called once after the suite. */
  cleanup?: () => Promise<void> | void;
}

type Param = { name: string; in: 'path' | 'query'; schema?: JsonObject };
const UNKNOWN = 999_999_999;
const T = demoSfwTargets as Record<string, number>;
const rows = (c: CollectionName) => (demoData[c] ?? []) as readonly unknown[];
const idsOf = (c: CollectionName) => rows(c).map((r) => (r as { mal_id: number }).mal_id);
const uniq = <X>(xs: readonly X[]) => [...new Set(xs)];

/** The ids referenced most often through the `owners` field of any collection (`"anime:20"`…). */
function mostOwned(prefix: string, n: number): number[] {
  const counts = new Map<number, number>();
  for (const c of COLLECTION_NAMES) {
    for (const record of rows(c)) {
      const owners = fieldValues(c, record).owners;
      if (!Array.isArray(owners)) continue;
      for (const o of owners) {
        const [kind, id] = String(o).split(':');
        if (kind === prefix) counts.set(Number(id), (counts.get(Number(id)) ?? 0) + 1);
      }
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, n).map(([id]) => id);
}

/** The demo ids an `{id}` under each top-level path takes: a few plain ones, the most linked, the SFW targets. */
function idsFor(section: string): number[] {
  const pick = (c: CollectionName, owner: string | undefined, targets: string) => {
    const targeted = Object.entries(T).filter(([k]) => k.endsWith(targets)).map(([, v]) => v);
    return uniq([...idsOf(c).slice(0, 2), ...(owner ? mostOwned(owner, 3) : []), ...targeted]);
  };
  const table: Record<string, () => number[]> = {
    anime: () => pick('anime', 'anime', 'Anime'),
    manga: () => pick('manga', 'manga', 'Manga'),
    characters: () => pick('characters', 'character', 'Character'),
    people: () => pick('people', 'person', 'VoiceActor'),
    producers: () => uniq([...idsOf('producers').slice(0, 2), ...idValues('producers').slice(0, 2).map(Number)]),
    news: () => pick('news', undefined, 'News'),
    articles: () => pick('articles', undefined, 'Article'),
    stacks: () => pick('stacks', undefined, 'Stack'),
  };
  return [...(table[section]?.() ?? [1]), UNKNOWN];
}

/** The `{year}/{season}` pairs: the busiest demo seasons, a whole year of them, and an empty one. */
function seasonPaths(): string[] {
  const counts = new Map<string, number>();
  for (const a of demoData.anime) {
    const s = premiere(a);
    if (s) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const busy = [...counts].sort((x, y) => y[1] - x[1]).slice(0, 4).map(([s]) => s);
  const year = busy[0]!.slice(0, 4);
  const all = uniq([...busy, ...['winter', 'spring', 'summer', 'fall'].map((s) => `${year}-${s}`), '1917-winter']);
  return all.map((s) => s.replace('-', '/'));
}

/** The anime with the most episodes. */
function episodesOwner(): number {
  const counts = new Map<number, number>();
  for (const e of rows('episodes')) {
    const id = (e as { anime_id: number }).anime_id;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}

/** Every way of filling a path's parameters. */
function pathTargets(path: string, params: readonly Param[]): string[] {
  if (path === '/v1/seasons/{year}/{season}') return seasonPaths().map((s) => `/v1/seasons/${s}`);
  if (path === '/v1/anime/{id}/episodes/{episode}') {
    const rich = episodesOwner();
    return [...[1, 2, UNKNOWN].map((e) => `/v1/anime/${rich}/episodes/${e}`), ...idsFor('anime').map((id) => `/v1/anime/${id}/episodes/1`)];
  }
  let targets = [path];
  for (const p of params.filter((x) => x.in === 'path')) {
    const values = p.name === 'id' ? idsFor(path.split('/')[2]!).map(String) : ((p.schema?.enum as string[] | undefined) ?? ['1']);
    targets = targets.flatMap((t) => values.map((v) => t.replace(`{${p.name}}`, v)));
  }
  return targets;
}

/** Ids an id-list filter takes: two common ones, both, and a bad value. */
function idValues(name: string): string[] {
  const top = (c: CollectionName, field: string) => {
    const counts = new Map<number, number>();
    for (const r of rows(c)) {
      const v = fieldValues(c, r)[field];
      for (const x of Array.isArray(v) ? v : []) counts.set(Number(x), (counts.get(Number(x)) ?? 0) + 1);
    }
    return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 2).map(([id]) => String(id));
  };
  const pair = name.startsWith('genre') ? top('anime', 'tags') : name.startsWith('producer') ? top('anime', 'companies') : name.startsWith('magazine') ? top('manga', 'magazines') : top('news', 'tag_ids');
  return [...pair, pair.join(','), '0'];
}

/** The values one query parameter takes: valid ones, edges and one invalid. */
function queryValues(p: Param): string[] {
  const s = p.schema ?? {};
  const items = (s.items ?? {}) as JsonObject;
  const enc = (v: string) => `${p.name}=${encodeURIComponent(v)}`;
  switch (p.name) {
    case 'page':
      return ['page=2', 'page=3', 'page=1000', 'page=0'];
    case 'limit':
      return ['limit=1', 'limit=7', 'limit=50', 'limit=51'];
    case 'letter':
      return ['a', 'n', 'z', '.', 'ab'].map(enc);
    case 'start_date':
    case 'end_date':
      return ['2005', '2010-04', '2012-01-01', '2012-13'].map(enc);
    case 'score':
    case 'min_score':
    case 'max_score':
      return ['5', '7.5', '8.25', 'x'].map(enc);
    case 'updated_at':
      return ['2020-01-01', '2030-01-01', 'yesterday'].map(enc);
  }
  if (s.type === 'boolean') return [p.name, `${p.name}=true`, `${p.name}=false`];
  if (Array.isArray(s.enum)) return [...(s.enum as string[]), 'nope'].map(enc);
  if (s.type === 'array' && Array.isArray(items.enum)) {
    const values = items.enum as string[];
    return [...values.slice(0, 6), values.slice(0, 2).join(','), values.at(-1)!, 'nope'].map(enc);
  }
  if (s.type === 'array' || s.type === 'integer') return idValues(p.name).map(enc);
  return [];
}

const SFW_MODES = ['sfw', 'sfw=true', 'sfw&sfw-strict', 'sfw-strict', 'sfw=false'];

/** The query strings of one route: each parameter alone, SFW modes, orderings, and combinations. */
function queries(params: readonly Param[], rich: boolean): string[] {
  const query = params.filter((p) => p.in === 'query' && p.name !== 'q');
  const has = (name: string) => query.some((p) => p.name === name);
  const out = [''];
  if (has('sfw')) out.push(...SFW_MODES);
  if (!rich) return out;
  const singles = query.filter((p) => p.name !== 'sfw' && p.name !== 'sfw-strict' && p.name !== 'order_by').flatMap(queryValues);
  out.push(...singles);
  if (has('sfw')) out.push(...singles.map((q) => `${q}&sfw`), ...singles.filter((q) => !q.includes('=')).map((q) => `${q}&sfw&sfw-strict`));
  const orderBy = query.find((p) => p.name === 'order_by');
  if (orderBy) {
    const paged = has('page') ? '&page=2' : '';
    const limit = has('limit') ? '&limit=7' : '';
    for (const v of [...(orderBy.schema?.enum as string[]), 'nope']) {
      out.push(`order_by=${v}`, `order_by=${v}&sort=asc${paged}${limit}`, `order_by=${v}&sort=desc${limit}`);
    }
  }
  // Every parameter's first valid value at once, and with SFW on and a later page.
  const first = query.filter((p) => !['sfw', 'sfw-strict', 'page', 'limit', 'letter'].includes(p.name)).map((p) => queryValues(p)[0]).filter(Boolean);
  if (first.length > 1) out.push(first.join('&'), `${first.join('&')}&sfw&page=2${has('limit') ? '&limit=3' : ''}`);
  return uniq(out);
}

/** Exact titles of the searchable list routes, a spread of a collection's records. */
function exactTitles(route: string): string[] {
  const by: Record<string, [CollectionName, (r: never) => string]> = {
    '/v1/anime': ['anime', (r: { title: string }) => r.title],
    '/v1/manga': ['manga', (r: { title: string }) => r.title],
    '/v1/characters': ['characters', (r: { name: string }) => r.name],
    '/v1/people': ['people', (r: { name: string }) => r.name],
    '/v1/producers': ['producers', (r: { titles: { title: string }[] }) => r.titles[0]?.title ?? ''],
    '/v1/magazines': ['magazines', (r: { name: string }) => r.name],
    '/v1/news': ['news', (r: { title: string }) => r.title],
    '/v1/articles': ['articles', (r: { title: string }) => r.title],
    '/v1/stacks': ['stacks', (r: { title: string }) => r.title],
  };
  const entry = by[route];
  if (!entry) return [];
  const [c, title] = entry;
  const all = rows(c);
  const step = Math.max(1, Math.floor(all.length / 25));
  return uniq(all.filter((_, i) => i % step === 0).map((r) => (title as (r: unknown) => string)(r)).filter(Boolean));
}

/**
 * The requests a differential run makes for an OpenAPI document (see the module comment).
 * @param document - The OpenAPI document (`createOpenApiDocument()` or `GET /v1/openapi.json`).
 * @returns The requests, grouped by route in document order.
 */
export function differentialRequests(document: { paths: Record<string, JsonObject> }): DifferentialRequest[] {
  const out: DifferentialRequest[] = [];
  for (const [route, item] of Object.entries(document.paths)) {
    const params = (((item.get as JsonObject | undefined)?.parameters ?? []) as unknown as Param[]).filter((p) => p.in === 'path' || p.in === 'query');
    const targets = pathTargets(route, params);
    // The whole query set on the first few fillings of the path, the SFW modes on every other one.
    targets.forEach((path, i) => {
      for (const q of queries(params, i < 3 || !route.includes('{'))) out.push({ route, target: q ? `${path}?${q}` : path, compare: 'bytes' });
    });
    if (params.some((p) => p.name === 'q')) {
      for (const title of exactTitles(route)) out.push({ route, target: `${route}?q=${encodeURIComponent(title)}`, compare: 'first' });
      for (const q of ['a', 'sword', 'shingeki no kyojin', 'naruto&order_by=mal_id', 'the&sfw&page=2', 'narut']) {
        if (q.includes('order_by') && !params.some((p) => p.name === 'order_by')) continue;
        out.push({ route, target: `${route}?q=${q}`, compare: 'ok' });
      }
    }
  }
  return out;
}

/** Where two bodies first differ, with a little context. */
function firstDifference(x: string, y: string): string {
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  const at = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 40), i + 60));
  return `bodies differ at char ${i}: ${at(x)} vs ${at(y)}`;
}

/**
 * Sends each request to both apps and describes every difference.
 * @param apps - The two apps.
 * @param requests - From {@link differentialRequests}.
 * @returns One line per request whose answers differ; empty when all agree.
 */
export async function compareApps(apps: DifferentialApps, requests: readonly DifferentialRequest[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { target, compare } of requests) {
    const [x, y] = await Promise.all([apps.a, apps.b].map(async (app) => {
      const res = await app(new Request(`http://localhost${target}`));
      return { status: res.status, body: await res.text() };
    }));
    if (compare !== 'bytes') {
      if (x!.status !== 200 || y!.status !== 200) problems.push(`${target}: status ${x!.status} vs ${y!.status}, both should be 200`);
      else if (compare === 'first') {
        const firstOf = (body: string) => JSON.stringify((JSON.parse(body) as { data: unknown[] }).data[0] ?? null);
        if (firstOf(x!.body) !== firstOf(y!.body)) problems.push(`${target}: first entries differ: ${firstDifference(firstOf(x!.body), firstOf(y!.body))}`);
      }
      continue;
    }
    if (x!.status !== y!.status) problems.push(`${target}: status ${x!.status} vs ${y!.status}`);
    else if (x!.body !== y!.body) problems.push(`${target}: ${firstDifference(x!.body, y!.body)}`);
  }
  return problems;
}

/**
 * Defines the differential suite: one test per route of core's OpenAPI document, each comparing
 * both apps' answers to that route's requests, plus the OpenAPI documents themselves. Build both
 * apps with the same `now` and `random` options, so that `/v1/seasons/now` and the random picks can
 * agree.
 * @param name - A label for the pair under test.
 * @param makeApps - Returns the two apps' `fetch` handlers.
 * @param options - Cleanup hook.
 * @example
 * ```ts
 * defineDifferentialContract('memory vs postgres', async () => ({
 *   a: createCatalogueApp({ store: memory, gateway: false, now, random }).fetch,
 *   b: createCatalogueApp({ store: postgres, gateway: false, now, random }).fetch,
 * }));
 * ```
 */
export function defineDifferentialContract(name: string, makeApps: () => Promise<DifferentialApps> | DifferentialApps, options: DifferentialContractOptions = {}): void {
  describe(`Differential contract: ${name}`, () => {
    const requests = differentialRequests(createOpenApiDocument());
    const routes = uniq(requests.map((r) => r.route));
    let apps: DifferentialApps;
    beforeAll(async () => {
      apps = await makeApps();
    }, 120_000);
    afterAll(async () => {
      await options.cleanup?.();
    });

    it(`serves the same ${OPENAPI_PATH}`, async () => {
      expect(await compareApps(apps, [{ route: OPENAPI_PATH, target: OPENAPI_PATH, compare: 'bytes' }])).toEqual([]);
    });
    for (const route of routes) {
      const mine = requests.filter((r) => r.route === route);
      it(`${route} (${mine.length} requests)`, async () => {
        expect(await compareApps(apps, mine)).toEqual([]);
      }, 60_000);
    }
  });
}
