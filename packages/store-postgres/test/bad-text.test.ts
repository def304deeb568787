/**
 * Text no store can hold, sent to every query parameter of every route of the OpenAPI document:
 * U+0000 (`%00`, which PostgreSQL's `text` refuses with SQLSTATE 22021), bytes that are not UTF-8
 * (`%ED%A0%80`, an encoded surrogate; `%FF`), each alone and inside otherwise good text. Over the
 * memory store and over PostgreSQL, each answers the 400 envelope naming the parameter, never a
 * 500, and nothing is logged. PostgreSQL needs `DATABASE_URL`.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryStore, createOpenApiDocument } from '@catalogue-api/core';
import { type CatalogueStore } from '@catalogue-api/core/store';
import { demoData } from '@catalogue-api/demo-data';
import { suiteDatabase } from './suite-database.js';

const url = process.env.DATABASE_URL;

interface Param {
  name: string;
  in: string;
  schema?: { enum?: unknown[]; type?: string };
}

/** Values of path parameters that reach the query's parsing: a demo id, a year, an enum's first value. */
function fillPath(path: string, params: readonly Param[]): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const param = params.find((p) => p.in === 'path' && p.name === name);
    if (param?.schema?.enum) return String(param.schema.enum[0]);
    return name === 'year' ? '2024' : '1';
  });
}

/** Every route's query parameters, each with a bad value: `[target, parameter]`. */
function badTargets(): Array<[string, string]> {
  const document = createOpenApiDocument() as unknown as { paths: Record<string, { get?: { parameters?: Param[] } }> };
  const values = ['%00', 'a%00b', '%ED%A0%80', 'x%ED%A0%80', '%FF'];
  const out: Array<[string, string]> = [];
  for (const [route, item] of Object.entries(document.paths)) {
    const params = item.get?.parameters ?? [];
    const path = fillPath(route, params);
    for (const p of params.filter((x) => x.in === 'query')) {
      for (const value of values) out.push([`${path}?${encodeURIComponent(p.name)}=${value}`, p.name]);
    }
  }
  return out;
}

async function expectAll400(store: CatalogueStore): Promise<void> {
  const logged: unknown[] = [];
  const app = createCatalogueApp({ store, gateway: false, logger: { error: (...args: unknown[]) => logged.push(args) } });
  const targets = badTargets();
  expect(targets.length).toBeGreaterThan(100);
  const wrong: string[] = [];
  for (const [target, name] of targets) {
    const response = await app.fetch(new Request(`http://api.test${target}`));
    const body = (await response.json()) as { status?: number; type?: string; message?: string; error?: unknown };
    const named = typeof body.message === 'string' && body.message.startsWith(`${name} `);
    if (response.status !== 400 || body.status !== 400 || body.type !== 'BadRequestException' || !named) {
      wrong.push(`${target}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
  }
  expect(wrong).toEqual([]);
  expect(logged).toEqual([]);
}

describe('text no store can hold, in any query parameter of any route', () => {
  it('answers 400 naming the parameter on the memory store, and logs nothing', async () => {
    await expectAll400(createMemoryStore(demoData));
  }, 60_000);

  it('names what free text may hold: letter and q refuse NUL, U+FFFD and unpaired surrogates', async () => {
    const app = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false });
    for (const [target, message] of [
      ['/v1/anime?letter=%00', 'letter must be exactly 1 character of UTF-8 text without U+0000 (NUL) or U+FFFD (the mark of bytes that are not UTF-8)'],
      ['/v1/people?q=a%00', 'q must be UTF-8 text without U+0000 (NUL) or U+FFFD (the mark of bytes that are not UTF-8)'],
      ['/v1/manga?q=%ED%A0%80', 'q must be UTF-8 text without U+0000 (NUL) or U+FFFD (the mark of bytes that are not UTF-8)'],
    ] as const) {
      const response = await app.fetch(new Request(`http://api.test${target}`));
      expect(response.status, target).toBe(400);
      expect(((await response.json()) as { message: string }).message, target).toBe(message);
    }
    // Good text on either side of the line still searches.
    expect((await app.fetch(new Request('http://api.test/v1/anime?letter=%C3%A9'))).status).toBe(200);
    expect((await app.fetch(new Request('http://api.test/v1/anime?q=%F0%9D%92%9C%20sword'))).status).toBe(200);
  });
});

describe.skipIf(!url)('text no store can hold, in any query parameter of any route, on PostgreSQL', () => {
  const { fresh } = suiteDatabase('pgseam_badtext', 4);

  it('answers 400 naming the parameter, never the 500 of SQLSTATE 22021, and logs nothing', async () => {
    const store = await fresh();
    await store.seed(demoData);
    await expectAll400(store);
  }, 120_000);
});
