/**
 * The pipeline's routing against itty-router's own `fetch` on the same patterns: the grouped
 * matching and the fast path that skips `new URL` must pick the same route, with the same params
 * and the same query object, for plain and hostile request targets alike.
 */
import { Router } from 'itty-router';
import { describe, expect, it } from 'vitest';
import type { PlainRequest } from './http.js';
import { createPipeline, type Route } from './pipeline.js';
import { createRouteMatcher } from './route-match.js';
import { toCanonicalRequest } from './request-target.js';

const patterns = [
  '/v1/anime',
  '/v1/anime/deleted',
  '/v1/anime/:id',
  '/v1/anime/:id/full',
  '/v1/anime/:id/episodes/:episode',
  '/v1/:kind/ids', // an unkeyed route registered between keyed ones keeps its place
  '/v1/manga/:id',
  '/v1/clubs/*',
  '/v1/seasons/:year/:season',
  '/api/status',
  '/v1/manga/ids',
];

type Answer = { route: string; params: Record<string, string>; query: Record<string, unknown> } | 'none';

const routes: Route<null>[] = patterns.map((path) => ({
  path,
  handler: ({ params, query }) => ({ body: { route: path, params: { ...params }, query: { ...query } } }),
}));
const handle = createPipeline({ routes, context: null });

async function viaPipeline(path: string, query: string): Promise<Answer> {
  const request: PlainRequest = { method: 'GET', path, query, header: () => undefined };
  const response = await handle(request);
  if (response.status === 404) return 'none';
  expect(response.status).toBe(200);
  return JSON.parse(response.body as string) as Answer;
}

async function viaItty(path: string, query: string): Promise<Answer> {
  const router = Router();
  for (const pattern of patterns) {
    router.get(pattern, (req: { params: Record<string, string>; query: Record<string, unknown> }) => ({
      route: pattern,
      params: { ...req.params },
      query: { ...req.query },
    }));
  }
  const url = query ? `http://x${path}?${query}` : `http://x${path}`;
  return ((await router.fetch({ method: 'GET', url } as never)) as Answer | undefined) ?? 'none';
}

const targets: Array<[string, string]> = [
  ['/v1/anime', ''],
  ['/v1/anime', 'q=naruto&limit=25'],
  ['/v1/anime/', 'q=a+b%20c&q=d&x=&x=y&flag'],
  ['/v1/anime/deleted', ''],
  ['/v1/anime/20', ''],
  ['/v1/anime/20/', ''],
  ['/v1/anime/20/full', 'sfw'],
  ['/v1/anime/20/episodes/3', ''],
  ['/v1/anime/ids', ''],
  ['/v1/manga/ids', ''],
  ['/v1/manga/7', 'a=%E3%83%8A&b=%zz&c=%'],
  ['/v1/clubs', ''],
  ['/v1/clubs/1/members', ''],
  ['/v1/seasons/2024/spring', ''],
  ['/v1/seasons/2024', ''],
  ['/api/status', ''],
  ['/api/status/x', ''],
  ['/v1', ''],
  ['/', ''],
  ['/v2/anime', ''],
  ['/v1//anime', ''],
  ['//v1/anime', ''],
  // The URL parser rewrites these; the pipeline must see what itty saw.
  ['/v1/x/../anime/1', ''],
  ['/v1/anime/./1', ''],
  ['/v1/anime/%2e%2e/manga/1', ''],
  ['/v1/anime/a b', ''],
  ['/v1/anime/\u00e9', ''],
  ['/v1\\anime\\1', ''],
  ['/v1/anime', 'q=x#fragment&limit=1'],
  ['/v1/anime', 'q=a\tb'],
  ['/v1/anime', 'q=trailing '],
  ['/v1/anime', 'q=caf\u00e9&r=\u30ca\u30eb\u30c8'],
  ['/v1/anime', 'q="<x>"&y=\'1\''],
  ['/v1/anime', '__proto__=1&constructor=2'],
];

describe('pipeline routing', () => {
  it.each(targets)('routes %s ? %s as itty-router does', async (path, query) => {
    expect(await viaPipeline(path, query)).toEqual(await viaItty(path, query));
  });

  it('prefers the first registered route that matches', async () => {
    expect(await viaPipeline('/v1/anime/deleted', '')).toMatchObject({ route: '/v1/anime/deleted' });
    expect(await viaPipeline('/v1/manga/ids', '')).toMatchObject({ route: '/v1/:kind/ids', params: { kind: 'manga' } });
  });

  it('gives a repeated query key as an array', async () => {
    expect(await viaPipeline('/v1/anime', 'genres=1&genres=2&q=x')).toEqual({ route: '/v1/anime', params: {}, query: { genres: ['1', '2'], q: 'x' } });
  });
});

describe('createRouteMatcher', () => {
  // Over canonical paths (what the pipeline matches once, before any stage), the matcher's row is
  // the one the pipeline's routing answers with, and the same again when the match is remembered.
  it('names the route the pipeline answers with', async () => {
    const match = createRouteMatcher(routes);
    const paths = [...targets.map(([path]) => path), '/V1/ANIME', '/v1/anime/20/FULL', '/v1/seasons/2024/spring/', '/v1/clubs/', '/v1/clubs'];
    for (const raw of paths) {
      const path = toCanonicalRequest({ method: 'GET', path: raw, query: '', header: () => undefined })?.path;
      if (path === undefined) continue;
      const answer = await viaPipeline(path, '');
      for (let again = 0; again < 2; again++) expect(match(path)?.route.path, path).toBe(answer === 'none' ? undefined : answer.route);
    }
  });
});
