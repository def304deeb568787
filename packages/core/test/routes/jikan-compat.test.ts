/**
 * Wire compatibility with Jikan v4, field by field: every Jikan v4 path the spec serves has a route
 * here, and each route's zod response schema has exactly Jikan's field names, leaf types and
 * nullability (recursively), except for the differences in `ALLOWED` below, each of which is a v1
 * addition of the spec or a correction of the OpenAPI document by the server's behaviour (docs/specification.md: Jikan response shapes;
 * docs/specification.md: where the Jikan server differs from its document). The Jikan side is `jikan-v4-shapes.ts`, generated from the OpenAPI document. Since the
 * shapes test (`shapes.test.ts`) proves that the demo data's bodies parse with these zod schemas and
 * carry nothing else, what holds for the schemas holds on the wire. Likewise every query parameter the
 * document declares is one our route parses, and every value it lists is accepted.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalogueApp, createMemoryStore } from '../../src/index.js';
import { catalogueRoutes } from '../../src/catalogue/routes/index.js';
import { unavailableRoutes } from '../../src/catalogue/routes/unavailable.js';
import { JIKAN_COMPONENTS, JIKAN_QUERIES, JIKAN_ROUTES, type JikanShape } from './jikan-v4-shapes.js';
import { sfwCatalogue } from './sfw-catalogue.js';

/** Routes of ours that Jikan v4 does not have (spec, Versioning: "Additions made during v1"). */
const V1_ONLY = new Set([
  '/v1/anime/deleted',
  '/v1/manga/deleted',
  '/v1/anime/ids',
  '/v1/manga/ids',
  '/v1/anime/:id/stacks',
  '/v1/manga/:id/stacks',
  '/v1/anime/:id/articles',
  '/v1/manga/:id/articles',
  '/v1/characters/:id/articles',
  '/v1/people/:id/articles',
  '/v1/news',
  '/v1/news/tags',
  '/v1/news/:id',
  '/v1/articles',
  '/v1/articles/tags',
  '/v1/articles/:id',
  '/v1/stacks',
  '/v1/stacks/:id',
]);

/** Our routes that answer as a Jikan route of another path. */
const SAME_AS: Record<string, string> = {
  // The server also takes the day as a path segment (docs/specification.md: Jikan routes and parameters); the document has only the query form.
  '/v1/schedules/:filter': '/schedules',
};

const jikanPathOf = (route: string) => SAME_AS[route] ?? route.replace(/^\/v1/, '').replace(/:(\w+)/g, '{$1}');

// ---- the Jikan side, with the document's envelope errors corrected ----

const SHORT_PAGINATION: JikanShape = { last_visible_page: 'integer', has_next_page: 'boolean' };

function component(name: string): JikanShape {
  const shape = JIKAN_COMPONENTS[name];
  if (shape === undefined) throw new Error(`no Jikan component ${name}`);
  return shape;
}

/** A review item of the global and top lists: review, `user` and `entry` (docs/specification.md: where the Jikan server differs from its document). */
const reviewWithEntry = (kind: 'anime' | 'manga'): JikanShape => ({
  user: '#user_meta',
  ...(component(`${kind}_review`) as Record<string, JikanShape>),
  entry: `#${kind}_meta`,
});

/**
 * Route bodies whose document schema is absent or malformed, as the server answers them
 * (docs/specification.md: where the Jikan server differs from its document: global and top reviews are `{ pagination, data: [review, entry, user] }`).
 */
const ROUTE_BODY: Record<string, JikanShape> = {
  ...JIKAN_ROUTES,
  '/top/reviews': { pagination: SHORT_PAGINATION, data: [{ $anyOf: [reviewWithEntry('anime'), reviewWithEntry('manga')] }] },
  '/reviews/anime': { pagination: SHORT_PAGINATION, data: [reviewWithEntry('anime')] },
  '/reviews/manga': { pagination: SHORT_PAGINATION, data: [reviewWithEntry('manga')] },
};

// ---- our side: a zod schema as a shape ----

type Json = Record<string, any>;

/** A JSON Schema (as zod writes it) as a shape of the same grammar as the Jikan side. */
function toShape(s: Json): JikanShape {
  if (s.anyOf) {
    const variants = (s.anyOf as Json[]).filter((v) => v.type !== 'null');
    const nullable = variants.length < s.anyOf.length;
    if (variants.length > 1) return { $anyOf: variants.map(toShape) };
    const inner = toShape(variants[0]!);
    if (!nullable) return inner;
    if (typeof inner === 'string') return `${inner}?`;
    // A nullable object or array with fields: marked on the node itself.
    return Array.isArray(inner) ? { $nullable: 'true', $items: inner } : { ...inner, $nullable: 'true' };
  }
  const types = ([] as string[]).concat(s.type ?? []);
  const nullable = types.includes('null');
  const type = types.find((t) => t !== 'null');
  if (type === 'object' && s.properties) return Object.fromEntries(Object.entries(s.properties as Json).map(([k, v]) => [k, toShape(v)]));
  if (type === 'array') return [toShape(s.items ?? {})];
  return `${type ?? 'any'}${nullable ? '?' : ''}`;
}

/** A route row's own response schema, as a shape. */
const ours = (route: string): JikanShape =>
  toShape(z.toJSONSchema(catalogueRoutes.find((r) => r.path === route)!.response!, { io: 'output', unrepresentable: 'any' }) as Json);

// ---- the comparison ----

const deref = (s: JikanShape): JikanShape => (typeof s === 'string' && s.startsWith('#') ? deref(component(s.slice(1))) : s);
const isObject = (s: JikanShape): s is Record<string, JikanShape> => typeof s === 'object' && !Array.isArray(s);
const leaf = (s: string) => ({ type: s.replace(/\?$/, ''), nullable: s.endsWith('?') });

/**
 * Every difference between a Jikan shape and ours, as `missing <path>`, `extra <path>`,
 * `nullable <path>: ours X, jikan Y` or `type <path>: ours X, jikan Y`.
 */
function differences(jikan: JikanShape, mine: JikanShape, at: string, out: string[]): string[] {
  jikan = deref(jikan);
  if (isObject(jikan) && jikan.$anyOf) {
    const variants = jikan.$anyOf as JikanShape[];
    const mineVariants = isObject(mine) && mine.$anyOf ? (mine.$anyOf as JikanShape[]) : [mine];
    // Alternatives of the same shape (anime_meta | manga_meta) compare as one.
    if (mineVariants.length === 1) return differences(variants[0]!, mineVariants[0]!, at, out);
    if (variants.length !== mineVariants.length) out.push(`type ${at}: ours ${mineVariants.length} alternatives, jikan ${variants.length}`);
    variants.forEach((v, i) => mineVariants[i] !== undefined && differences(v, mineVariants[i]!, `${at}|${i}`, out));
    return out;
  }
  const name = (key: string) => (at ? `${at}.${key}` : key);
  if (typeof jikan === 'string' && typeof mine === 'string') {
    const j = leaf(jikan);
    const o = leaf(mine);
    // An integer is a number; `any` (a free-form value) takes anything.
    const compatible = j.type === o.type || j.type === 'any' || (j.type === 'number' && o.type === 'integer');
    if (!compatible) out.push(`type ${at}: ours ${o.type}, jikan ${j.type}`);
    if (j.nullable !== o.nullable) out.push(`nullable ${at}: ours ${o.nullable}, jikan ${j.nullable}`);
  } else if (Array.isArray(jikan) && Array.isArray(mine)) {
    differences(jikan[0]!, mine[0]!, `${at}[]`, out);
  } else if (isObject(jikan) && isObject(mine)) {
    for (const key of Object.keys(jikan)) {
      if (!(key in mine)) out.push(`missing ${name(key)}`);
      else differences(jikan[key]!, mine[key]!, name(key), out);
    }
    for (const key of Object.keys(mine)) if (!(key in jikan)) out.push(`extra ${name(key)}`);
  } else if (jikan !== 'any') {
    const kind = (s: JikanShape) => (Array.isArray(s) ? 'array' : isObject(s) ? 'object' : leaf(s).type);
    out.push(`type ${at}: ours ${kind(mine)}, jikan ${kind(jikan)}`);
  }
  return out;
}

// ---- the differences we mean ----

interface Allowance {
  /** Jikan paths it applies to; all when absent. */
  routes?: RegExp;
  /** The differences it allows. */
  diff: RegExp;
  /**
   * Where the difference comes from: "server, not document" marks a row of docs/specification.md,
   * "Where the Jikan server differs from its OpenAPI document".
   */
  why: string;
}

const ANIME_RECORD_ROUTES = /^\/(anime(\/\{id\}(\/full)?)?|random\/anime|seasons\/.*|schedules|top\/anime)$/;
const MANGA_RECORD_ROUTES = /^\/(manga(\/\{id\}(\/full)?)?|random\/manga|top\/manga)$/;
const TRAILER_V1 = 'title|views|likes|dislikes|comment_count|published_at|duration|privacy_status|region_restriction|embeddable';

const ALLOWED: Allowance[] = [
  {
    diff: new RegExp(`^extra (.+\\.)?(trailer|video)\\.(${TRAILER_V1})$`),
    why: 'spec, Anime object and Versioning: trailers and videos carry title, views, likes, dislikes, comment_count, published_at, duration, privacy_status, region_restriction, embeddable',
  },
  { routes: ANIME_RECORD_ROUTES, diff: /^extra data(\[\])?\.trailer\.images$/, why: 'server, not document: the server sends anime.trailer with images (doc: trailer_base)' },
  {
    routes: new RegExp(`${ANIME_RECORD_ROUTES.source}|${MANGA_RECORD_ROUTES.source}`),
    diff: /^(missing data(\[\])?\.(aired|published)\.prop\.string|extra data(\[\])?\.(aired|published)\.string)$/,
    why: 'spec, "Anime object", and the server: the display string sits beside prop, not inside it as the document has it',
  },
  {
    routes: ANIME_RECORD_ROUTES,
    diff: /^nullable data(\[\])?\.(type|source|status): ours false, jikan true$/,
    why: 'spec, Anime object: type, source and status are not nullable',
  },
  { routes: /^\/anime\/\{id\}\/full$/, diff: /^extra data\.moreinfo$/, why: 'spec: the full anime response carries moreinfo' },
  { routes: /^\/anime\/\{id\}\/characters$/, diff: /^extra data\[\]\.favorites$/, why: 'server, not document: anime characters items carry favorites' },
  {
    routes: /^\/anime\/\{id\}\/characters$/,
    diff: /^extra data\[\]\.voice_actors\[\]\.person\.favorites$/,
    why: 'spec, Other resources: person entries inside anime characters carry favorites',
  },
  {
    routes: /^\/anime\/\{id\}\/episodes(\/\{episode\})?$/,
    diff: /^extra data(\[\])?\.(replies|synopsis|images)$/,
    why: 'spec, Other resources: episode records carry replies, a synopsis and a cover image (the detail already had synopsis)',
  },
  {
    routes: /^\/(anime|manga)\/\{id\}\/(full|relations)$/,
    diff: /^extra data(\.relations)?\[\]\.entry\[\]\.(images|media_type)$/,
    why: 'spec, Other resources: relation entries carry images (JPG and WebP) and media_type',
  },
  {
    routes: /^\/anime\/\{id\}\/pictures$/,
    diff: /^(missing data\[\]\.images|extra data\[\]\.(jpg|webp))$/,
    why: 'server, not document: anime pictures are {jpg:{3 sizes}, webp:{3 sizes}} items, no images wrapper',
  },
  {
    routes: /^\/characters\/\{id\}\/pictures$/,
    diff: /^(missing data\[\]\.(image_url|large_image_url)|extra data\[\]\.jpg)$/,
    why: 'server, not document: character pictures are {jpg:{image_url}} items',
  },
  {
    routes: /^\/(anime|manga)\/\{id\}\/recommendations$/,
    diff: /^extra data\[\]\.(url|votes)$/,
    why: 'server, not document: entry recommendations are {entry, url, votes}',
  },
  { routes: /^\/recommendations\/(anime|manga)$/, diff: /^extra data\[\]\.date$/, why: 'server, not document: recent recommendations carry date' },
  { routes: MANGA_RECORD_ROUTES, diff: /^extra data(\[\])?\.(title_synonyms|scored)$/, why: 'server, not document: manga and manga_full carry title_synonyms and scored' },
  {
    routes: /^\/(producers|magazines)$/,
    diff: /^extra pagination\.(current_page|items)$/,
    why: 'server, not document: /producers and /magazines have the full pagination object',
  },
  { routes: /^\/seasons$/, diff: /^extra pagination$/, why: 'server, not document: /seasons is {pagination, data}' },
  {
    routes: /^\/(manga\/\{id\}\/reviews|reviews\/manga|top\/reviews)$/,
    diff: /^extra data\[\](\|1)?\.chapters_read$/,
    why: 'server, not document: manga reviews carry chapters_read',
  },
  {
    routes: /^\/(anime\/\{id\}\/reviews|reviews\/anime|top\/reviews)$/,
    diff: /^nullable data\[\](\|0)?\.episodes_watched: ours true, jikan false$/,
    why: 'server, not document: episodes_watched is int? (null when the reviewer did not say)',
  },
];

const SERVED = catalogueRoutes.map((r) => r.path).filter((p) => !unavailableRoutes.some((u) => u.path === p));
const COMPARED = SERVED.filter((route) => !V1_ONLY.has(route));
const used = new Set<Allowance>();

describe('Jikan v4 compatibility of the response shapes', () => {
  it('serves every Jikan v4 path the spec does not list as unavailable', () => {
    const ourPaths = new Set(COMPARED.map(jikanPathOf));
    expect(Object.keys(JIKAN_ROUTES).filter((path) => !ourPaths.has(path))).toEqual([]);
  });

  it('has a Jikan counterpart for every route that is not a listed v1 addition', () => {
    expect(COMPARED.filter((route) => !(jikanPathOf(route) in ROUTE_BODY))).toEqual([]);
    expect([...V1_ONLY].filter((route) => !SERVED.includes(route))).toEqual([]);
  });

  it.each(COMPARED.filter((route) => jikanPathOf(route) in ROUTE_BODY))('%s has Jikan field names, types and nullability', (route) => {
    const jikanPath = jikanPathOf(route);
    const unexpected = differences(ROUTE_BODY[jikanPath]!, ours(route), '', []).filter((diff) => {
      const allowance = ALLOWED.find((a) => (a.routes?.test(jikanPath) ?? true) && a.diff.test(diff));
      if (allowance) used.add(allowance);
      return !allowance;
    });
    expect(unexpected).toEqual([]);
  });

  it('uses every allowance (an unused one is stale or too narrow)', () => {
    expect(ALLOWED.filter((a) => !used.has(a)).map((a) => a.why)).toEqual([]);
  });
});

// ---- query parameters ----

const SEASON_QUERY = { kids: 'boolean', filter: ['tv', 'movie', 'ova', 'special', 'ona', 'music', 'cm', 'pv', 'tv_special'] };
const REVIEW_SORT = { sort: ['mostVoted', 'newest', 'oldest'] };

/** Parameters the server takes beyond the document (docs/specification.md: Jikan routes and parameters; docs/specification.md: where the Jikan server differs from its document), which clients send. */
const SERVER_QUERIES: Record<string, Record<string, string | string[]>> = {
  '/anime': { producer: 'integer' },
  '/seasons/now': SEASON_QUERY,
  '/seasons/upcoming': SEASON_QUERY,
  '/seasons/{year}/{season}': SEASON_QUERY,
  '/random/anime': { sfw: 'boolean', unapproved: 'boolean' },
  '/random/manga': { sfw: 'boolean', unapproved: 'boolean' },
  '/top/manga': { sfw: 'boolean' },
  '/top/reviews': { limit: 'integer' },
  '/reviews/anime': REVIEW_SORT,
  '/reviews/manga': REVIEW_SORT,
  '/anime/{id}/reviews': REVIEW_SORT,
  '/manga/{id}/reviews': REVIEW_SORT,
};

/** Documented values we refuse on purpose. */
const REFUSED: Record<string, Record<string, string[]>> = {
  // spec, What the service does: the anime forum supports only episode threads (filter=episode).
  '/anime/{id}/forum': { filter: ['all', 'other'] },
};

/** A value of each free-form parameter, as the document describes it. */
const SAMPLE: Record<string, string[]> = {
  q: ['naruto'],
  letter: ['a'],
  score: ['7.5'],
  min_score: ['0', '7'],
  max_score: ['10', '8'],
  genres: ['1', '1,2'],
  genres_exclude: ['1,2'],
  producers: ['1,2'],
  magazines: ['1,2'],
  // The server takes full dates only (docs/specification.md: where the Jikan server differs from its document); we also take the document's 2022 and 2005-05.
  start_date: ['2005-01-01', '2005-05', '2022'],
  end_date: ['2024-12-31', '2024-05', '2024'],
};

/** The keys of a route's query schema (an object, possibly piped through a transform). */
function queryKeys(schema: z.ZodType | undefined): string[] {
  let s = schema as unknown as { def: { type: string; in?: unknown }; shape?: Record<string, unknown> } | undefined;
  while (s?.def.type === 'pipe') s = s.def.in as typeof s;
  return Object.keys(s?.shape ?? {});
}

const app = createCatalogueApp({ store: createMemoryStore(sfwCatalogue), gateway: false });
const PATH_VALUES: Record<string, string> = { year: '2024', season: 'spring', filter: 'monday' };
const concrete = (route: string) => route.replace(/:(\w+)/g, (_, name: string) => PATH_VALUES[name] ?? '1');

describe('Jikan v4 query parameters', () => {
  const rows = catalogueRoutes
    .filter((r) => jikanPathOf(r.path) in JIKAN_QUERIES && !V1_ONLY.has(r.path))
    .flatMap((r) =>
      Object.entries({ ...JIKAN_QUERIES[jikanPathOf(r.path)], ...SERVER_QUERIES[jikanPathOf(r.path)] }).map(([name, values]) => ({
        route: r,
        name,
        values,
      })),
    );

  it.each(rows.map((row) => [row.route.path, row.name, row] as const))('%s parses ?%s', (_path, name, { route }) => {
    expect(queryKeys(route.query)).toContain(name);
  });

  it.each(rows.map((row) => [row.route.path, row.name, row] as const))('%s accepts the documented values of ?%s', async (_path, name, { route, values }) => {
    const refused = REFUSED[jikanPathOf(route.path)]?.[name] ?? [];
    const accepted = Array.isArray(values) ? values : values === 'boolean' ? ['', 'true', 'false'] : (SAMPLE[name] ?? ['1']);
    for (const value of accepted) {
      const res = await app.fetch(new Request(`http://localhost${concrete(route.path)}?${name}=${encodeURIComponent(value)}`));
      const body = (await res.json()) as { message?: string };
      if (refused.includes(value)) expect(res.status, `${name}=${value}`).toBe(400);
      else expect(res.status, `${name}=${value}: ${body.message}`).not.toBe(400);
    }
  });
});

describe('the shape comparison', () => {
  it('reports missing, extra, retyped and re-nulled fields', () => {
    const jikan: JikanShape = { a: 'integer', b: 'string?', c: ['#title'], d: 'boolean' };
    const mine: JikanShape = { a: 'string', b: 'string', c: [{ type: 'string' }], e: 'any' };
    expect(differences(jikan, mine, '', [])).toEqual([
      'type a: ours string, jikan integer',
      'nullable b: ours false, jikan true',
      'missing c[].title',
      'missing d',
      'extra e',
    ]);
  });

  it('reads zod nullability and nesting', () => {
    const schema = z.object({ n: z.number().int().nullable(), o: z.object({ s: z.string() }).nullable(), l: z.array(z.boolean()) });
    expect(toShape(z.toJSONSchema(schema, { io: 'output' }) as Json)).toEqual({
      n: 'integer?',
      o: { s: 'string', $nullable: 'true' },
      l: ['boolean'],
    });
  });
});
