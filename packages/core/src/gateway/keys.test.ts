import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from './constant-time.js';
import { createStaticKeyStore, fingerprintKey } from './keys.js';

describe('constantTimeEqual', () => {
  it.each([
    ['abc', 'abc', true],
    ['abc', 'abd', false],
    ['abc', 'abcd', false],
    ['abcd', 'abc', false],
    ['', '', true],
    ['', 'a', false],
    ['é', 'e', false],
  ])('compares %j and %j as %s', (a, b, equal) => {
    expect(constantTimeEqual(a, b)).toBe(equal);
  });
});

describe('createStaticKeyStore', () => {
  it('answers a known key with its fingerprint and an unknown one with null', async () => {
    const store = createStaticKeyStore(['alpha-key', 'beta-key', '']);
    expect(await store.verify('beta-key')).toBe(await fingerprintKey('beta-key'));
    expect(await store.verify('gamma-key')).toBeNull();
    expect(await store.verify('')).toBeNull();
    expect(await store.verify('alpha-ke')).toBeNull();
  });

  it('fingerprints without revealing the key', async () => {
    const id = await fingerprintKey('alpha-key');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(id).not.toContain('alpha');
  });
});
