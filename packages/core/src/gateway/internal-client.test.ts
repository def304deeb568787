import { describe, expect, it } from 'vitest';
import { createCatalogueApp } from '../app.js';
import { createMemoryStore } from '../seam/memory-store.js';
import { makeAnime } from '../../test/fixtures.js';

describe('a request the host makes in-process (internalClient)', () => {
  const setup = () => createCatalogueApp({ store: createMemoryStore({ anime: [makeAnime({ mal_id: 1, title: 'Cowboy Bebop' })] }), logger: { error: () => undefined } });
  const local = { clientAddress: '127.0.0.1' };

  it('is answered while the address it would share is blocked', async () => {
    const app = setup();
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await app.fetch(new Request('http://x/v1/anime/1'), local)).status);
    expect(statuses.at(-1)).toBe(403);
    const probe = await app.fetch(new Request('http://x/v1/random/anime'), { ...local, internalClient: 'status-check' });
    expect(probe.status).toBe(200);
    expect((await app.fetch(new Request('http://x/v1/anime/1'), local)).status).toBe(403);
  });

  it('counts in a bucket of its own, never a client\'s, and is never blocked', async () => {
    const app = setup();
    const internal = { internalClient: 'status-check' };
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await app.fetch(new Request('http://x/v1/anime/1'), internal)).status);
    expect(statuses).toContain(429);
    expect(statuses).not.toContain(403);
    // The clients it might have shared an address with were never counted.
    expect((await app.fetch(new Request('http://x/v1/anime/1'), local)).status).toBe(200);
  });
});
