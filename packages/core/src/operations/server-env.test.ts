import { describe, expect, it, vi } from 'vitest';
import { EnvError, readServerEnv, SERVER_ENV } from './server-env.js';
import { toStartupFailure } from './startup-failure.js';
import { itRefusesEach, refusalOf } from '../../../../test/support/env-refusals.js';

/** Reads the environment with warnings kept, not printed. */
function read(env: Record<string, string>, staleAfterSeconds?: number) {
  const warnings: string[] = [];
  const settings = readServerEnv(env, { staleAfterSeconds, warn: (line) => warnings.push(line) });
  return { settings, warnings };
}

/** The one-line message readServerEnv refuses an environment with. */
const refusal = (env: Record<string, string>, staleAfterSeconds?: number) => refusalOf((given) => read(given, staleAfterSeconds), env);

describe('readServerEnv', () => {
  it('gives the defaults when nothing is set, and counts empty as unset', () => {
    const { settings, warnings } = read({});
    expect(settings).toEqual({
      PORT: 3000,
      HOST: '127.0.0.1',
      MAX_CONNECTIONS: undefined,
      MAX_PIPELINED_REQUESTS: undefined,
      MAX_QUEUED_BYTES: undefined,
      SEND_TIMEOUT_MS: undefined,
      SHUTDOWN_TIMEOUT_MS: 8000,
      RATE_LIMIT: true,
      CACHE: true,
      SERVER_KEYS: [],
      FINGERPRINT_SECRET: undefined,
      RESTRICTED_ROUTES: [],
      TRUST_PROXY: false,
      REDIS_URL: undefined,
      REDIS_PREFIX: 'catalogue-api:',
      DATABASE_URL: undefined,
      DATABASE_SCHEMA: undefined,
      DATA: undefined,
      DEMO_DATA: undefined,
      STORE_TIMEOUT_MS: undefined,
      ADMISSION: true,
      SEARCH_CONCURRENCY: undefined,
      SEARCH_QUEUE: undefined,
      READ_CONCURRENCY: undefined,
      READ_QUEUE: undefined,
      ADMISSION_WAIT_MS: undefined,
      STATUS_PORT: undefined,
      STATUS_CONFIG: undefined,
      STATUS_UPSTREAMS: [],
      STATUS_DATABASE_URL: undefined,
      STATUS_DATABASE_SCHEMA: 'catalogue_status',
      STATUS_INTERVAL_SECONDS: undefined,
      ACCESS_LOG: 'json',
      ACCESS_LOG_SAMPLE: 1,
      ACCESS_LOG_CLIENT: 'hash',
      REQUEST_ID: true,
      METRICS_PORT: undefined,
      METRICS_HOST: '127.0.0.1',
      API_DEPRECATED_AT: undefined,
      API_SUNSET_AT: undefined,
      API_SUCCESSOR_URL: undefined,
      UPSTREAM_URL: undefined,
      UPSTREAM_MAX_PER_SECOND: 3,
      UPSTREAM_MAX_PER_MINUTE: 60,
      UPSTREAM_TIME_SCALE: 1,
      UPSTREAM_STATE_FILE: undefined,
      REFRESH_DISCOVERY_MINUTES: undefined,
      REFRESH_NEW_MINUTES: undefined,
      REFRESH_HOT_HOURS: undefined,
      REFRESH_STATS_HOURS: undefined,
      REFRESH_POPULAR_DAYS: undefined,
      REFRESH_FULL_DAYS: undefined,
    });
    expect(warnings).toEqual([]);
    const empty = Object.fromEntries(Object.keys(SERVER_ENV).map((name) => [name, '']));
    expect(read(empty).settings).toEqual(settings);
  });

  /** The setting read from `name=value` (with a Server Key, so that no warning is printed). */
  const setting = (name: string, value: string) => read({ [name]: value, SERVER_KEYS: name === 'SERVER_KEYS' ? value : 'k' }).settings[name as keyof typeof SERVER_ENV];

  it.each([
    ['PORT', '0', 0],
    ['PORT', '65535', 65535],
    ['MAX_CONNECTIONS', '1', 1],
    ['MAX_CONNECTIONS', '50', 50],
    ['MAX_PIPELINED_REQUESTS', '4', 4],
    ['MAX_QUEUED_BYTES', '65536', 65536],
    ['SEND_TIMEOUT_MS', '2000', 2000],
    ['SHUTDOWN_TIMEOUT_MS', '0', 0],
    ['SHUTDOWN_TIMEOUT_MS', '25000', 25000],
    ['RATE_LIMIT', 'off', false],
    ['RATE_LIMIT', 'on', true],
    ['CACHE', 'off', false],
    ['SERVER_KEYS', ' key-one, key-two ,', ['key-one', 'key-two']],
    ['TRUST_PROXY', '1', 1],
    ['TRUST_PROXY', 'true', true],
    ['TRUST_PROXY', '10.0.0.0/8, ::1', ['10.0.0.0/8', '::1']],
    ['DEMO_DATA', 'on', true],
    ['DEMO_DATA', 'off', false],
    ['STORE_TIMEOUT_MS', '250', 250],
    ['STATUS_PORT', '3001', 3001],
    ['STATUS_UPSTREAMS', 'api=https://api.example.org/health, cdn=http://cdn.example.org', [
      { id: 'api', url: 'https://api.example.org/health' },
      { id: 'cdn', url: 'http://cdn.example.org' },
    ]],
    ['STATUS_INTERVAL_SECONDS', '1', 1],
    ['STATUS_INTERVAL_SECONDS', '120', 120],
    ['ACCESS_LOG_SAMPLE', '0.25', 0.25],
    ['REQUEST_ID', 'off', false],
    ['METRICS_PORT', '9464', 9464],
    ['ADMISSION', 'off', false],
    ['SEARCH_CONCURRENCY', '4', 4],
    ['SEARCH_QUEUE', '0', 0],
    ['READ_CONCURRENCY', '48', 48],
    ['READ_QUEUE', '2000', 2000],
    ['ADMISSION_WAIT_MS', '250', 250],
  ])('reads %s=%s', (name, value, expected) => {
    expect(setting(name, value)).toEqual(expected);
  });

  it.each([
    ['HOST', '0.0.0.0'],
    ['REDIS_URL', 'redis://127.0.0.1:6379'],
    ['REDIS_URL', 'rediss://:secret@cache.example.org:6380/2'],
    ['REDIS_PREFIX', 'staging:'],
    ['DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'],
    ['DATABASE_URL', 'postgresql://app:pw@db/catalogue?sslmode=require'],
    ['DATABASE_SCHEMA', 'catalogue_v2'],
    ['DATA', 'snapshot.json'],
    ['STATUS_CONFIG', 'status.json'],
    ['STATUS_DATABASE_URL', 'postgres://127.0.0.1/status'],
    ['STATUS_DATABASE_SCHEMA', 'status'],
    ['ACCESS_LOG', 'off'],
    ['ACCESS_LOG_CLIENT', 'address'],
    ['METRICS_HOST', '10.0.0.7'],
    ['API_DEPRECATED_AT', '2027-01-31'],
    ['API_SUNSET_AT', '2027-07-01T00:00:00Z'],
    ['API_SUCCESSOR_URL', 'https://api.example.org/v2'],
    ['FINGERPRINT_SECRET', 's3cret-of-the-deployment'],
  ])('keeps %s=%s as it is', (name, value) => {
    expect(setting(name, value)).toBe(value);
  });

  itRefusesEach(read);

  it('never repeats a Server Key, naming a bad one by its position', () => {
    expect(refusal({ SERVER_KEYS: 'key-one,kéy two' })).toBe(
      'SERVER_KEYS must be Server Keys of visible ASCII characters (no spaces), separated by commas: key 2 of 2 holds another character',
    );
  });

  it('allows STATUS_INTERVAL_SECONDS up to the status results\' own staleAfterSeconds', () => {
    expect(read({ STATUS_INTERVAL_SECONDS: '600' }, 600).settings.STATUS_INTERVAL_SECONDS).toBe(600);
    expect(refusal({ STATUS_INTERVAL_SECONDS: '90' }, 60)).toBe(
      'STATUS_INTERVAL_SECONDS must be a whole number of seconds from 1 to 60 (staleAfterSeconds: how long a status result counts), not "90"',
    );
  });

  describe('RESTRICTED_ROUTES', () => {
    it.each([
      ['/v1/top/*', ['/v1/top/*']],
      ['/v1/top/*,/v1/anime/:id/full', ['/v1/top/*', '/v1/anime/:id/full']],
      ['/v1/anime/1/full', ['/v1/anime/1/full']],
      ['/v1/anime/:id', ['/v1/anime/:id']],
      ['/v1/top/anime/', ['/v1/top/anime/']],
      ['/v1/*', ['/v1/*']],
      ['/v1/seasons/now', ['/v1/seasons/now']],
      ['/v1/openapi.json', ['/v1/openapi.json']],
      ['/v1/users/*', ['/v1/users/*']],
      ['/v1/clubs/1/members', ['/v1/clubs/1/members']],
    ])('takes %s, which matches a route', (value, patterns) => {
      expect(read({ RESTRICTED_ROUTES: value, SERVER_KEYS: 'key-one' })).toEqual(expect.objectContaining({ warnings: [] }));
      expect(read({ RESTRICTED_ROUTES: value, SERVER_KEYS: 'key-one' }).settings.RESTRICTED_ROUTES).toEqual(patterns);
    });

    it.each([
      ['/top/*', '/top/* matches no route (did you mean /v1/top/*?)'],
      ['v1/top/anime', 'v1/top/anime matches no route (did you mean /v1/top/anime?)'],
      ['top/anime', 'top/anime matches no route (did you mean /v1/top/anime?)'],
      ['/v1/top/*,/v1/anmie/:id', '/v1/anmie/:id matches no route'],
      ['/v1/anime/:id/full/more', '/v1/anime/:id/full/more matches no route'],
      ['/v1', '/v1 matches no route'],
      ['/api/status', '/api/status matches no route'],
    ])('refuses %s, saying what was probably meant', (value, detail) => {
      expect(refusal({ RESTRICTED_ROUTES: value, SERVER_KEYS: 'key-one' })).toBe(
        `RESTRICTED_ROUTES must be route patterns of this API separated by commas, such as /v1/top/*,/v1/anime/:id/full, not "${value}": ${detail}`,
      );
    });

    it('warns in one line when no Server Key can open them', () => {
      expect(read({ RESTRICTED_ROUTES: '/v1/top/*,/v1/anime/:id/full' }).warnings).toEqual([
        'Warning: RESTRICTED_ROUTES is set but SERVER_KEYS is empty: /v1/top/*, /v1/anime/:id/full answer 401 to every client.',
      ]);
      expect(read({ RESTRICTED_ROUTES: '/v1/top/*', SERVER_KEYS: 'key-one' }).warnings).toEqual([]);
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      readServerEnv({ RESTRICTED_ROUTES: '/v1/top/*' });
      expect(warn).toHaveBeenCalledOnce();
      warn.mockRestore();
    });
  });

  it('reads only the variables asked for', () => {
    const settings = readServerEnv({ PORT: '8080', MAX_CONNECTIONS: 'many', DATABASE_URL: 'mysql://db' }, { only: ['PORT', 'HOST'] });
    expect(settings).toEqual({ PORT: 8080, HOST: '127.0.0.1' });
  });
});

describe('toStartupFailure', () => {
  it('says a bad variable in one line, with exit code 2', () => {
    expect(toStartupFailure(new EnvError('PORT', 'PORT must be a port number from 0 to 65535, not "x"'))).toEqual({
      line: 'Invalid configuration: PORT must be a port number from 0 to 65535, not "x"',
      exitCode: 2,
    });
  });

  it('says what failed and why in one line, with exit code 1', () => {
    const taken = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:3000'), { code: 'EADDRINUSE' });
    expect(toStartupFailure(taken)).toEqual({
      line: 'Could not start: listen EADDRINUSE: address already in use 127.0.0.1:3000 (another process listens on that port; set PORT (or STATUS_PORT, METRICS_PORT) to a free one, 0 picks one)',
      exitCode: 1,
    });
    // Every address of a host refused: an AggregateError with no message of its own.
    const refused = new AggregateError([Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5999'), { code: 'ECONNREFUSED' })], '');
    const wrapped = new Error('PostgreSQL at postgres://app:***@127.0.0.1:5999/test', { cause: refused });
    expect(toStartupFailure(wrapped)).toEqual({
      line: 'Could not start: PostgreSQL at postgres://app:***@127.0.0.1:5999/test: connect ECONNREFUSED 127.0.0.1:5999 (nothing listens there; is the service up?)',
      exitCode: 1,
    });
    const multiline = new Error('relation "x" does not exist\n    at Migration.run (migrate.js:1:1)');
    expect(toStartupFailure(multiline).line).toBe('Could not start: relation "x" does not exist');
    expect(toStartupFailure('a string').line).toBe('Could not start: a string');
  });
});
