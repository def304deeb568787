import { describe, expect, it } from 'vitest';
import { createHealthApp } from './health.js';

const get = (app: ReturnType<typeof createHealthApp>, path: string, method = 'GET') =>
  app.handle({ method, path, query: '', header: () => undefined, clientAddress: '127.0.0.1' });

describe('createHealthApp', () => {
  it('answers /healthz 200 whatever the dependencies, never cached', async () => {
    const app = createHealthApp({ checks: { store: () => Promise.reject(new Error('down')) } });
    const res = await get(app, '/healthz');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.body as string)).toEqual({ status: 'ok' });
  });

  it('answers /readyz 503 naming what is down while a check fails, 200 once it passes again', async () => {
    let storeUp = true;
    const app = createHealthApp({
      cacheMs: 0,
      checks: { store: () => (storeUp ? undefined : Promise.reject(new Error('refused'))), gateway: () => 'PONG' },
    });
    const ready = await get(app, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(ready.body as string)).toEqual({ status: 'ready', checks: { store: true, gateway: true } });

    storeUp = false;
    const down = await get(app, '/readyz');
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBe('1');
    expect(down.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(down.body as string)).toMatchObject({ status: 503, type: 'ServiceUnavailableException', path: '/readyz' });
    expect(JSON.parse(down.body as string).error).toContain('store');
    expect(app.state()).toEqual({ store: false, gateway: true });

    storeUp = true;
    expect((await get(app, '/readyz')).status).toBe(200);
  });

  it('counts a check that does not answer within the timeout as down', async () => {
    const app = createHealthApp({ timeoutMs: 20, cacheMs: 0, checks: { gateway: () => new Promise(() => undefined) } });
    expect((await get(app, '/readyz')).status).toBe(503);
  });

  it('runs one round of checks for polls that come together', async () => {
    let calls = 0;
    const app = createHealthApp({ cacheMs: 60_000, checks: { store: () => void calls++ } });
    await Promise.all([get(app, '/readyz'), get(app, '/readyz'), get(app, '/readyz')]);
    await get(app, '/readyz');
    expect(calls).toBe(1);
  });

  it('keeps the state of the latest round when an older, slower one ends after it', async () => {
    // The first round's check hangs until released, and fails; the second passes at once.
    let release: (() => void) | undefined;
    let calls = 0;
    const app = createHealthApp({
      cacheMs: 0,
      checks: { store: () => (++calls === 1 ? new Promise((_, reject) => (release = () => reject(new Error('refused')))) : undefined) },
    });
    const older = app.check();
    expect(await app.check()).toEqual({ store: true });
    release!();
    expect(await older).toEqual({ store: false });
    expect(app.state()).toEqual({ store: true });
  });

  it('owns only its two paths and answers HEAD and other methods like every app', async () => {
    const app = createHealthApp();
    expect([app.owns('/healthz'), app.owns('/readyz'), app.owns('/v1/anime')]).toEqual([true, true, false]);
    expect((await get(app, '/readyz', 'HEAD')).status).toBe(200);
    expect((await get(app, '/healthz', 'DELETE')).status).toBe(405);
  });
});
