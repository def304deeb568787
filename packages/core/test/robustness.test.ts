/**
 * Robustness of every endpoint against hostile input, through `app.fetch`: for each route of the
 * catalogue table (plus `/v1/openapi.json` and the status app's `/api/status`), path parameters get
 * valid demo ids and hostile values, query strings get each known key with hostile values and
 * seeded random combinations of them, and every method other than GET is tried. The project rule
 * (spec, "Errors"): bad input gets the JSON error envelope with a message that names the parameter,
 * never a 500, a crash, a hang or a stack trace. The fuzz is deterministic (seeded PRNG) and
 * bounded to a few thousand requests.
 */
import { demoData } from '@catalogue-api/demo-data';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  combineApps,
  createCatalogueApp,
  createMemoryStore,
  createStatusApp,
  ERROR_TYPES,
  type ErrorStatus,
} from '../src/index.js';
import { mulberry32 as seeded } from '../../../scripts/lib/mulberry32.mjs';
import { catalogueRoutes } from '../src/catalogue/routes/index.js';

// ---------------------------------------------------------------------------------------------
// Apps under test

/** Every unexpected failure the pipeline logs: each one is a 500 a client would have seen. */
const logged: string[] = [];
const logger = {
  error: (message: string, detail?: unknown) => void logged.push(`${message}: ${detail instanceof Error ? detail.message : String(detail)}`),
};

const d = demoData;
const NOW = Date.UTC(2024, 0, 15, 12);
const catalogue = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false, logger, now: () => NOW, random: seeded(7) });
/** The same app with its gateway on (keys and caching), but no rate limit, so the fuzz is never refused. */
const gated = createCatalogueApp({ store: createMemoryStore(demoData), gateway: { rateLimit: false }, logger, now: () => NOW, random: seeded(8) });
const status = createStatusApp({
  services: [{ id: 'api', name: 'Catalogue API', check: { url: 'http://127.0.0.1:9/health' } }],
  logger,
  now: () => NOW,
});
const combined = combineApps(status, catalogue);

type App = { fetch(request: Request): Promise<Response> };

// ---------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32, the PRNG the data builders use: every run sends the same requests)

const pickOf =
  (random: () => number) =>
  <T>(items: readonly T[]): T =>
    items[Math.floor(random() * items.length)]!;

// ---------------------------------------------------------------------------------------------
// Inputs

/** A valid value for each path parameter, per resource root, from the demo data. */
const VALID_ID: Record<string, number> = {
  anime: d.anime[0]!.mal_id,
  manga: d.manga![0]!.mal_id,
  characters: d.characters![0]!.mal_id,
  people: d.people![0]!.mal_id,
  producers: d.producers![0]!.mal_id,
  news: d.news![0]!.mal_id,
  articles: d.articles![0]!.mal_id,
  stacks: d.stacks![0]!.mal_id,
};
const episode = d.episodes!.find((e) => e.anime_id === VALID_ID.anime) ?? d.episodes![0]!;
const seasonal = d.anime.find((a) => a.season && a.year)!;
const VALID_PARAM: Record<string, string> = {
  episode: String(episode.mal_id),
  year: String(seasonal.year),
  season: seasonal.season!,
  filter: 'monday',
};

/** The path with every parameter valid; `override` replaces one parameter's (raw, already encoded) text. */
function concrete(pattern: string, override?: { name: string; value: string }): string {
  const root = pattern.split('/')[2]!;
  return pattern
    .replace(/:(\w+)/g, (_, name: string) => {
      if (override?.name === name) return override.value;
      if (name === 'id') return String(VALID_ID[root] ?? 1);
      return VALID_PARAM[name] ?? '1';
    })
    .replace(/\*$/, 'someone');
}

const LONG = 'a'.repeat(10_000);
const LONG_DIGITS = '9'.repeat(5_000);

/** Hostile path segments, as they go on the wire (percent-encoded where needed). */
const HOSTILE_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '+1',
  '0x10',
  '99999999999999999999',
  '9007199254740993',
  'abc',
  'NaN',
  'Infinity',
  '%00',
  '%E0%A4%A',
  '%ZZ',
  '%',
  '%2e%2e',
  '..',
  '.',
  '%2F',
  '1%2F2',
  '%20',
  '1%20',
  encodeURIComponent('アニメ'),
  encodeURIComponent('🍣'),
  '__proto__',
  'constructor',
  LONG,
  LONG_DIGITS,
  '',
];

/** Path segments that name no record of any route. */
const NOT_AN_ID = ['0', '-1', '1.5', '1e3', '99999999999999999999', 'abc', '%00', '%E0%A4%A', '%ZZ', LONG, LONG_DIGITS];

/** Hostile `key=value` forms; `k` is the (encoded) key. Raw strings: some are malformed on purpose. */
const HOSTILE_FORMS: Array<(k: string) => string> = [
  (k) => `${k}=`,
  (k) => k,
  (k) => `${k}=1&${k}=2`,
  (k) => `${k}=&${k}=`,
  (k) => `${k}[]=1`,
  (k) => `${k}[]=1&${k}[]=2`,
  (k) => `${k}[0]=1`,
  (k) => `${k}[a]=1`,
  (k) => `${k}=${LONG}`,
  (k) => `${k}=${LONG_DIGITS}`,
  (k) => `${k}=%`,
  (k) => `${k}=%E0%A4%A`,
  (k) => `${k}=%ZZ`,
  (k) => `${k}=%00`,
  (k) => `${k}=%FF%FE`,
  (k) => `${k}=NaN`,
  (k) => `${k}=Infinity`,
  (k) => `${k}=-Infinity`,
  (k) => `${k}=-0`,
  (k) => `${k}=1e400`,
  (k) => `${k}=1e-400`,
  (k) => `${k}=9007199254740993`,
  (k) => `${k}=%2B1`,
  (k) => `${k}=+1`,
  (k) => `${k}=%20`,
  (k) => `${k}=%201%20`,
  (k) => `${k}=%09%0A`,
  (k) => `${k}=0x1F`,
  (k) => `${k}=1,,2`,
  (k) => `${k}=,`,
  (k) => `${k}=${encodeURIComponent('アニメ')}`,
  (k) => `${k}=${encodeURIComponent('🍣💥')}`,
  (k) => `${k}=%F0%9F`,
  (k) => `${k}=__proto__`,
  (k) => `${k}=constructor`,
  (k) => `${k}=toString`,
  (k) => `${k}=hasOwnProperty`,
  (k) => `${k}=null`,
  (k) => `${k}=undefined`,
  (k) => `${k}=%5B%5D`,
  (k) => `${k}=%7B%7D`,
  (k) => `${k}=1;2`,
  (k) => `${k}=2024-02-30`,
  (k) => `${k}=-1`,
  (k) => `${k}=0`,
];

/** Keys every route is tried with, whether or not it reads them. */
const COMMON_KEYS = ['page', 'limit', 'q', 'sfw', 'sfw-strict', 'order_by', 'sort', 'type', 'filter', 'unapproved', 'letter'];
/** Keys that name `Object.prototype` members; a query object must never confuse them with its own. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__[page]', 'constructor[prototype]'];
/** Query strings that are hostile as a whole rather than per key. */
const HOSTILE_QUERIES = ['', '&', '&&&', '=', '==', '=1', '?', '??page=1', '&page=1&', 'page=1#frag', 'page=1;limit=2', '%', '%%%', '%3D', LONG, `${LONG}=1`];

/** The keys of a route's query schema (a `z.object`, possibly piped through a transform). */
function queryKeys(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  let s = schema as unknown as { def: { type: string; in?: unknown }; shape?: Record<string, unknown> };
  while (s.def.type === 'pipe') s = s.def.in as typeof s;
  return Object.keys(s.shape ?? {});
}

// ---------------------------------------------------------------------------------------------
// Checking one answer

const ALLOWED = new Set([200, 204, 304, 400, 401, 403, 404, 405, 429, 503]);
const ENVELOPE_KEYS = ['error', 'message', 'path', 'status', 'type'];
/** A stack frame (`    at fn (file.ts:1:2)`), a file URL or path with line numbers, or a thrown error's name. */
const STACK = /\bat (?:async )?[\w$.<>\[\] ]*\(?(?:file:\/\/|node:|\/)[^)\s]*:\d+(?::\d+)?|\.(?:ts|js|mjs|cjs):\d+:\d+|node_modules\//;
const ERROR_NAME = /\b(?:Type|Range|Reference|Syntax|URI|Zod)?Error:/;
const TIMEOUT_MS = 5_000;
// A test sends dozens to hundreds of requests; on a loaded shared machine the batch can take longer
// than vitest's 5 s default. A hang is still caught per request, by TIMEOUT_MS.
const BATCH = { timeout: 60_000 };

interface Case {
  app: App;
  method: string;
  /** Path and query as sent, without the host. */
  target: string;
  /** Names that may appear at the head of a 400 message: path parameters of the route. */
  pathParams?: readonly string[];
}

async function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms: ${what}`)), TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const short = (s: string) => (s.length > 160 ? `${s.slice(0, 160)}…(${s.length} chars)` : s);

/**
 * Sends one request and returns what is wrong with its answer (empty when nothing is).
 * The answer is checked against the spec's Errors section and the project rule.
 */
async function check({ app, method, target, pathParams = [] }: Case): Promise<string[]> {
  const what = `${method} ${short(target)}`;
  const problems: string[] = [];
  const fail = (text: string) => problems.push(`${what}: ${text}`);
  let request: Request;
  try {
    request = new Request(`http://localhost${target}`, { method });
  } catch (error) {
    // The test's own input could not be a Request (e.g. a forbidden method): not the app's fault.
    throw new Error(`bad test input ${what}: ${String(error)}`);
  }
  const url = new URL(request.url);
  let res: Response;
  try {
    res = await withTimeout(app.fetch(request), what);
  } catch (error) {
    fail(`fetch rejected or hung: ${String(error)}`);
    return problems;
  }
  const text = await withTimeout(res.text(), `${what} (body)`);
  if (!ALLOWED.has(res.status)) fail(`status ${res.status}${res.status === 500 ? '' : `: ${short(text)}`}`);
  if (STACK.test(text)) fail(`body holds a stack trace: ${short(text)}`);
  if (res.status !== 204 && res.status !== 304 && !res.headers.get('content-type')?.startsWith('application/json')) {
    fail(`content-type ${res.headers.get('content-type')}`);
  }
  if (method === 'HEAD' || method === 'OPTIONS') {
    if (text !== '') fail(`${method} has a body`);
    if (method === 'OPTIONS' && res.status !== 204) fail(`OPTIONS answered ${res.status}`);
    return problems;
  }
  if (method !== 'GET' && res.status !== 405) fail(`${method} answered ${res.status}, not 405`);
  if (res.status === 405 && res.headers.get('allow') !== 'GET, HEAD, OPTIONS') fail(`405 Allow is ${res.headers.get('allow')}`);
  if (res.status < 300) return problems;

  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    fail(`non-JSON error body: ${short(text)}`);
    return problems;
  }
  if (ERROR_NAME.test(text)) fail(`body names a thrown error: ${short(text)}`);
  const keys = Object.keys(body).sort();
  const expectedKeys = res.status === 503 && !('error' in body) ? ENVELOPE_KEYS.filter((k) => k !== 'error') : ENVELOPE_KEYS;
  if (keys.join() !== expectedKeys.join()) fail(`envelope keys ${keys.join()}`);
  if (body.status !== res.status) fail(`envelope status ${String(body.status)}`);
  if (body.type !== ERROR_TYPES[res.status as ErrorStatus]) fail(`envelope type ${String(body.type)}`);
  if (typeof body.message !== 'string' || body.message === '') fail('envelope message is not a non-empty string');
  if ('error' in body && typeof body.error !== 'string') fail('envelope error is not a string');
  // The canonical path: as the URL parser resolves it, without trailing slashes (docs/configuration.md, "Request paths").
  const canonical = url.pathname.replace(/\/+$/, '') || '/';
  if (body.path !== canonical) fail(`envelope path ${short(String(body.path))}, sent ${short(url.pathname)}`);

  if (res.status === 400 && typeof body.message === 'string') {
    const sent = new Set([...url.searchParams.keys(), ...pathParams]);
    const named = [...sent].some((name) => name !== '' && body.message!.toString().startsWith(`${name} `));
    if (!named) fail(`400 message names no parameter that was sent (${[...sent].map(short).join(', ')}): ${short(body.message)}`);
  }
  return problems;
}

/** Runs cases a few at a time (as concurrent clients would) and collects every problem. */
async function run(cases: Case[]): Promise<string[]> {
  const problems: string[] = [];
  for (let i = 0; i < cases.length; i += 16) {
    const batch = await Promise.all(cases.slice(i, i + 16).map(check));
    for (const p of batch) problems.push(...p);
  }
  return problems;
}

/** Asserts no problems, listing the first few with a count. */
function expectNone(problems: string[]): void {
  const shown = problems.slice(0, 15);
  if (problems.length > shown.length) shown.push(`…and ${problems.length - shown.length} more`);
  expect(shown).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// The routes

const pathParamsOf = (pattern: string) => [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]!);
const ROUTES = [
  ...catalogueRoutes.map((route) => ({ pattern: route.path, keys: queryKeys(route.query), app: catalogue as App })),
  { pattern: '/v1/openapi.json', keys: [] as string[], app: catalogue as App },
  { pattern: '/api/status', keys: [] as string[], app: status as App },
];

describe('robustness: every route, hostile input', BATCH, () => {
  it('covers every route of the table, the OpenAPI document and the status API', () => {
    expect(ROUTES.length).toBe(catalogueRoutes.length + 2);
    expect(ROUTES.length).toBeGreaterThan(80);
  });

  describe.each(ROUTES)('$pattern', ({ pattern, keys, app }) => {
    const params = pathParamsOf(pattern);
    const base = concrete(pattern);
    // One stream per route, so adding a route does not change the requests sent to the others.
    const random = seeded([...pattern].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261));
    const pick = pickOf(random);

    it('answers the valid request without an error', async () => {
      const res = await app.fetch(new Request(`http://localhost${base}${pattern.endsWith('/forum') ? '?filter=episode' : ''}`));
      // 404 for the unavailable endpoints (and sub-lists the first demo record lacks), never a 5xx.
      expect([200, 404], `${base}: ${res.status}`).toContain(res.status);
      await res.arrayBuffer();
    });

    if (params.length) {
      it('answers hostile path parameters with 400 naming the parameter, or 404', async () => {
        const cases = params.flatMap((name) =>
          HOSTILE_SEGMENTS.map((value) => ({ app, method: 'GET', target: concrete(pattern, { name, value }), pathParams: params })),
        );
        expectNone(await run(cases));
        // A value that is no id is never served: 400 or 404 (the 404 of the unavailable endpoints).
        // (`+1` is served as 1: parseId accepts a leading plus, as the query's integers do.)
        for (const name of params) {
          for (const value of NOT_AN_ID) {
            const target = concrete(pattern, { name, value });
            const res = await app.fetch(new Request(`http://localhost${target}`));
            expect([400, 404], short(target)).toContain(res.status);
            await res.arrayBuffer();
          }
        }
      });
    }

    it('answers hostile values of every known key with 2xx or a 400 naming it', async () => {
      const allKeys = [...new Set([...keys, ...COMMON_KEYS])];
      const cases: Case[] = [];
      for (const key of allKeys) {
        // Every form for the keys the route declares; a sample for the others.
        const forms = keys.includes(key) ? HOSTILE_FORMS : Array.from({ length: 4 }, () => pick(HOSTILE_FORMS));
        for (const form of forms) cases.push({ app, method: 'GET', target: `${base}?${form(encodeURIComponent(key))}`, pathParams: params });
      }
      expectNone(await run(cases));
    });

    it('ignores prototype names as keys and refuses them as values', async () => {
      const cases: Case[] = [];
      for (const key of PROTOTYPE_KEYS) {
        for (const value of ['1', '', '__proto__', 'constructor']) {
          cases.push({ app, method: 'GET', target: `${base}?${encodeURIComponent(key)}=${encodeURIComponent(value)}`, pathParams: params });
        }
      }
      for (const query of HOSTILE_QUERIES) cases.push({ app, method: 'GET', target: `${base}?${query}`, pathParams: params });
      expectNone(await run(cases));
    });

    if (keys.length) {
      it('answers seeded random combinations of keys and hostile values', async () => {
        const cases: Case[] = [];
        const pool = [...keys, ...keys, ...COMMON_KEYS, ...PROTOTYPE_KEYS];
        for (let i = 0; i < 24; i++) {
          const parts = Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(HOSTILE_FORMS)(encodeURIComponent(pick(pool))));
          const sep = pick(['&', '&', '&', '&&']);
          cases.push({ app, method: 'GET', target: `${base}?${pick(['', '&'])}${parts.join(sep)}`, pathParams: params });
        }
        expectNone(await run(cases));
      });
    }

    it('answers HEAD and OPTIONS without a body, and other methods with 405', async () => {
      const methods = ['HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH', 'patch', 'PROPFIND', 'FOO', 'GET2'];
      const cases = methods.flatMap((method) => [
        { app, method, target: base, pathParams: params },
        { app, method, target: `${base}?page=0&limit=${LONG_DIGITS}`, pathParams: params },
      ]);
      expectNone(await run(cases));
    });
  });
});

describe('robustness: enumerated values are looked up as own keys', () => {
  // A value such as `constructor` must not be found on `Object.prototype` of a lookup table.
  const ENUM_ROUTES = ROUTES.filter((r) => r.app === catalogue && r.keys.length);
  const FREE_TEXT = new Set(['q']);

  it.each(ENUM_ROUTES.map((r) => [r.pattern, r.keys] as const))(
    '%s refuses prototype names as values of its enumerated keys with 400',
    async (pattern, keys) => {
      const problems: string[] = [];
      // `/v1/schedules/:filter` takes its filter from the path and ignores `?filter=`.
      const enumerated = keys.filter((k) => !FREE_TEXT.has(k) && !(k === 'filter' && pattern.endsWith('/:filter')));
      for (const key of enumerated) {
        for (const value of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
          const target = `${concrete(pattern)}?${encodeURIComponent(key)}=${value}`;
          const res = await catalogue.fetch(new Request(`http://localhost${target}`));
          const body = (await res.json()) as { message?: string };
          if (res.status !== 400 || !body.message?.startsWith(`${key} `)) problems.push(`${target}: ${res.status} ${short(String(body.message))}`);
        }
      }
      expectNone(problems);
    },
  );
});

describe('robustness: paths outside the routes', BATCH, () => {
  const PATHS = [
    '/',
    '/v1',
    '/v1/',
    '/v2/anime',
    '/v1/anime/',
    '/v1/anime//',
    '//v1/anime',
    '/v1//anime',
    '/V1/ANIME',
    '/v1/anime/1/',
    '/v1/anime/1/full/extra',
    '/v1/anime/1/episodes/1/2',
    '/v1/%00',
    '/v1/%E0%A4%A',
    '/v1/..%2f..%2fetc%2fpasswd',
    '/v1/anime/..%2F1',
    '/v1/anime/%2e%2e/%2e%2e',
    `/v1/${LONG}`,
    `/v1/anime/${'1/'.repeat(2000)}`,
    `/v1/${encodeURIComponent('アニメ')}`,
    '/v1/openapi.json/x',
    '/v1/__proto__',
    '/v1/constructor',
    '/api/status/',
    '/api/status/x',
    '/api/statusx',
    '/api',
    '/favicon.ico',
  ];

  it.each([
    ['the catalogue app', catalogue as App],
    ['the status app', status as App],
    ['the combined app', combined as App],
    ['the catalogue app behind its gateway', gated as App],
  ])('%s answers unknown paths with the 404 envelope', async (_, app) => {
    // Some of these still match a route (`/v1/anime/..%2F1` is `/v1/anime/:id`): a 400 there names `id`.
    // The status app served alone answers `/` with its HTML page (docs/pages.md): not an unknown path there.
    const paths = app === status ? PATHS.filter((target) => new URL(target, 'http://localhost').pathname !== '/') : PATHS;
    const cases = paths.flatMap((target) => ['GET', 'HEAD', 'OPTIONS', 'POST'].map((method) => ({ app, method, target, pathParams: ['id'] })));
    expectNone(await run(cases));
  });

  it('the combined app routes both APIs and survives hostile queries on each', async () => {
    const cases = ['/api/status', '/v1/anime', '/v1/anime/1', '/v1/openapi.json'].flatMap((base) =>
      HOSTILE_QUERIES.map((q) => ({ app: combined as App, method: 'GET', target: `${base}?${q}`, pathParams: ['id'] })),
    );
    expectNone(await run(cases));
  });
});

describe('robustness: the gateway (keys and caches) in front of the routes', BATCH, () => {
  it('answers a seeded sample of hostile requests with the envelope, twice (miss, then hit)', async () => {
    const random = seeded(20261121);
    const pick = pickOf(random);
    const served = ROUTES.filter((r) => r.app === catalogue);
    const cases: Case[] = [];
    for (let i = 0; i < 150; i++) {
      const route = pick(served);
      const params = pathParamsOf(route.pattern);
      const path =
        params.length && random() < 0.3 ? concrete(route.pattern, { name: pick(params), value: pick(HOSTILE_SEGMENTS) }) : concrete(route.pattern);
      const pool = [...route.keys, ...COMMON_KEYS, ...PROTOTYPE_KEYS];
      const parts = Array.from({ length: Math.floor(random() * 4) }, () => pick(HOSTILE_FORMS)(encodeURIComponent(pick(pool))));
      const target = parts.length ? `${path}?${parts.join('&')}` : path;
      cases.push({ app: gated, method: pick(['GET', 'GET', 'GET', 'HEAD']), target, pathParams: params });
    }
    expectNone(await run([...cases, ...cases]));
  });

  it('answers hostile gateway headers with the envelope', async () => {
    const headers: Array<Record<string, string>> = [
      { 'x-server-key': '' },
      { 'x-server-key': LONG },
      { 'x-server-key': '__proto__' },
      { 'if-none-match': '*' },
      { 'if-none-match': LONG },
      { 'if-none-match': ',,,' },
      { 'if-modified-since': 'not a date' },
      { 'if-modified-since': 'Mon, 01 Jan 99999 00:00:00 GMT' },
      { 'x-forwarded-for': 'not-an-ip, ::::, 999.1.1.1' },
      { 'x-forwarded-for': LONG },
      { forwarded: 'for="[::1', 'x-real-ip': '%00' },
      { 'cache-control': 'no-cache, max-age=-1' },
      { 'cache-control': LONG },
    ];
    const problems: string[] = [];
    for (const h of headers) {
      for (const target of ['/v1/anime?page=0', '/v1/anime/1', '/v1/nowhere']) {
        const res = await withTimeout(gated.fetch(new Request(`http://localhost${target}`, { headers: h })), target);
        const text = await res.text();
        if (!ALLOWED.has(res.status)) problems.push(`${target} ${JSON.stringify(h).slice(0, 80)}: ${res.status} ${short(text)}`);
        if (STACK.test(text)) problems.push(`${target}: stack trace`);
      }
    }
    expectNone(problems);
  });
});

describe('robustness: nothing was logged as an unexpected failure', () => {
  it('the logger saw no unhandled error (each would have been a 500)', () => {
    expect([...new Set(logged.map((line) => short(line)))].slice(0, 20)).toEqual([]);
  });
});
