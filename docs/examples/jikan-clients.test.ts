/**
 * The three Jikan v4 clients of docs/migrating-from-jikan.md, each through the functions the page
 * shows, against the Node example server over a real socket. RATE_LIMIT=off: the clients' calls
 * come faster than the public tier's 4 a second, and only jikan-ts can send a Server Key header.
 */
import type { SpawnedServer } from '@catalogue-api/testkit';
import { JikanClient } from '@tutkli/jikan-ts';
import ky from 'ky';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample } from '../../test/support/example-servers.js';
import { createJikanTsClient, tourWithJikanTs } from './jikan-client-jikan-ts.js';
import { createJikan4Client, tourWithJikan4 } from './jikan-client-jikan4js.js';
import { pointJikanjsAt, tourWithJikanjs } from './jikan-client-jikanjs.js';

const serverKey = `jikan-clients-${Math.random().toString(36).slice(2)}`;
let server: SpawnedServer;
let base: string;
/** What the server itself answers to the tour's six requests, read with plain fetch. */
let expected: Awaited<ReturnType<typeof tourWithJikanTs>>;

async function data<T>(path: string): Promise<T> {
  const response = await fetch(`${base}${path}`);
  expect(response.status, path).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

beforeAll(async () => {
  server = await startExample('node', { RATE_LIMIT: 'off', SERVER_KEYS: serverKey });
  base = `${server.url}/v1`;
  const [search, naruto, full, characters, top, season] = await Promise.all([
    data<Array<{ title: string }>>('/anime?q=naruto'),
    data<{ title: string }>('/anime/20'),
    data<{ theme: { openings: string[] } }>('/anime/20/full'),
    data<Array<{ character: { name: string } }>>('/anime/20/characters'),
    data<Array<{ rank: number }>>('/top/anime'),
    data<Array<{ mal_id: number }>>('/seasons/2002/fall'),
  ]);
  expected = {
    found: search.map((a) => a.title),
    title: naruto.title,
    openings: full.theme.openings,
    characters: characters.map((c) => c.character.name),
    ranks: top.map((a) => a.rank),
    season: season.map((a) => a.mal_id),
  };
}, 60_000);

afterAll(() => server?.close());

describe('Jikan v4 clients on the Node example server, as docs/migrating-from-jikan.md configures them', () => {
  it('the server answers the tour with Naruto (mal_id 20) and its real neighbours', () => {
    expect(expected.found[0]).toBe('Naruto');
    expect(expected.found).toContain('Naruto: Shippuuden');
    expect(expected.title).toBe('Naruto');
    expect(expected.openings.length).toBeGreaterThan(0);
    expect(expected.characters).toContain('Naruto Uzumaki');
    expect(expected.ranks.slice(0, 3)).toEqual([1, 2, 3]);
    expect(expected.ranks).toHaveLength(25);
    expect(expected.season).toContain(20);
  });

  it('@tutkli/jikan-ts with a ky instance on the base URL: search, detail, full, characters, top, season', async () => {
    expect(await tourWithJikanTs(createJikanTsClient(base))).toEqual(expected);
  });

  it('jikan4.js with host, baseUri v1 and secure false: search, detail, full, characters, top, season', async () => {
    expect(await tourWithJikan4(createJikan4Client(base))).toEqual(expected);
  }, 60_000);

  it('@mateoaranda/jikanjs with setBaseURL(origin, 1) and the plain-http workaround: the same six', async () => {
    expect(await tourWithJikanjs(pointJikanjsAt(base))).toEqual(expected);
  });

  it('jikan-ts sends a Server Key set in its ky instance\'s headers: the right key is served, a wrong one is 401', async () => {
    const withKey = (key: string) => new JikanClient({ kyInstance: ky.create({ prefixUrl: base, headers: { 'X-Server-Key': key } }) });
    expect((await withKey(serverKey).anime.getAnimeById(20)).data.mal_id).toBe(20);
    await expect(withKey('not-a-key').anime.getAnimeById(20)).rejects.toMatchObject({ response: { status: 401 } });
  });

  it('a missing anime comes back in each client\'s own way: ky HTTPError 404, undefined, Error with the envelope\'s error', async () => {
    await expect(createJikanTsClient(base).anime.getAnimeById(999999)).rejects.toMatchObject({ response: { status: 404 } });
    expect(await createJikan4Client(base).anime.get(999999)).toBeUndefined();
    await expect(pointJikanjsAt(base).loadAnime(999999)).rejects.toThrow(/no anime record with mal_id 999999/);
  });

  it('jikanjs without the workaround cannot reach a plain-http server: its own send speaks TLS to it (EPROTO)', async () => {
    const jikan = pointJikanjsAt(base);
    const packageSend = Object.getPrototypeOf(jikan.request).send as typeof jikan.request.send;
    await expect(packageSend.call(jikan.request, ['anime', 20])).rejects.toMatchObject({ code: 'EPROTO' });
  });
});
