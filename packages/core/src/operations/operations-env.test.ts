import { describe, expect, it } from 'vitest';
import { itRefusesEach } from '../../../../test/support/env-refusals.js';
import { OPERATIONS_ENV, parseTrustProxy, readOperationsEnv } from './operations-env.js';

describe('readOperationsEnv', () => {
  it('turns on the log, request ids and nothing else when nothing is set', () => {
    expect(readOperationsEnv({})).toEqual({
      accessLog: 'json',
      sample: 1,
      clientId: 'hash',
      requestIds: true,
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
      deprecation: undefined,
      trustProxy: false,
    });
    // Empty is unset, as a shell's `VAR=` means.
    expect(readOperationsEnv({ ACCESS_LOG: '', ACCESS_LOG_SAMPLE: '', REQUEST_ID: '', METRICS_PORT: '', TRUST_PROXY: '' })).toEqual(readOperationsEnv({}));
  });

  it('reads every variable', () => {
    const env = {
      ACCESS_LOG: 'off',
      ACCESS_LOG_SAMPLE: '0.25',
      ACCESS_LOG_CLIENT: 'none',
      REQUEST_ID: 'off',
      METRICS_PORT: '9464',
      METRICS_HOST: '10.0.0.7',
      API_DEPRECATED_AT: '2027-01-01T00:00:00Z',
      API_SUNSET_AT: '2027-07-01T00:00:00Z',
      API_SUCCESSOR_URL: 'https://api.example.org/v2',
      TRUST_PROXY: '10.0.0.0/8',
      // HOST is the public interface: never the metrics' default.
      HOST: '0.0.0.0',
    };
    expect(readOperationsEnv(env)).toEqual({
      accessLog: 'off',
      sample: 0.25,
      clientId: 'none',
      requestIds: false,
      metricsPort: 9464,
      metricsHost: '10.0.0.7',
      deprecation: { deprecatedAt: '2027-01-01T00:00:00Z', sunsetAt: '2027-07-01T00:00:00Z', successorUrl: 'https://api.example.org/v2' },
      trustProxy: ['10.0.0.0/8'],
    });
    expect(readOperationsEnv({ HOST: '0.0.0.0', METRICS_PORT: '9464' }).metricsHost).toBe('127.0.0.1');
  });

  itRefusesEach(readOperationsEnv, OPERATIONS_ENV);
});

describe('parseTrustProxy', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['true', true],
    [' 2 ', 2],
    ['10.0.0.0/8, ::1', ['10.0.0.0/8', '::1']],
  ])('reads TRUST_PROXY=%j as %j', (value, trust) => {
    expect(parseTrustProxy(value)).toEqual(trust);
  });
});
