/**
 * The example's admission settings: `SEARCH_CONCURRENCY`, `SEARCH_QUEUE`, `READ_CONCURRENCY`,
 * `READ_QUEUE`, `ADMISSION_WAIT_MS` and `ADMISSION=off`, read into `createCatalogueApp`'s `admission`.
 */
import { createCatalogueApp } from '@catalogue-api/core';
import { describe, expect, it } from 'vitest';
import { itRefusesEach } from '../../../test/support/env-refusals.js';
import { ADMISSION_ENV, readAdmissionEnv } from '../admission-env.js';

describe('readAdmissionEnv', () => {
  it("leaves every bound to core's default when nothing is set", () => {
    expect(readAdmissionEnv({})).toEqual({
      search: { concurrency: undefined, queue: undefined, waitMs: undefined },
      read: { concurrency: undefined, queue: undefined, waitMs: undefined },
    });
    expect(() => createCatalogueApp({ admission: readAdmissionEnv({}) })).not.toThrow();
  });

  it('reads each bound, and one wait for both kinds', () => {
    const env = { SEARCH_CONCURRENCY: '6', SEARCH_QUEUE: '0', READ_CONCURRENCY: '48', READ_QUEUE: '2000', ADMISSION_WAIT_MS: '250' };
    expect(readAdmissionEnv(env)).toEqual({
      search: { concurrency: 6, queue: 0, waitMs: 250 },
      read: { concurrency: 48, queue: 2000, waitMs: 250 },
    });
  });

  it('turns admission off with ADMISSION=off', () => {
    expect(readAdmissionEnv({ ADMISSION: 'off', SEARCH_CONCURRENCY: '6' })).toBe(false);
    expect(readAdmissionEnv({ ADMISSION: 'on' })).not.toBe(false);
  });

  itRefusesEach(readAdmissionEnv, ADMISSION_ENV);
});
