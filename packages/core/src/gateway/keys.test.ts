import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from './constant-time.js';
import { createKeyFingerprinter, createStaticKeyStore } from './keys.js';

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

describe('createKeyFingerprinter', () => {
  it('is HMAC-SHA-256 of the labelled key under the secret, cut to 128 bits', async () => {
    const utf8 = new TextEncoder();
    // An independent HMAC implementation (the one the access log uses).
    const expected = bytesToHex(hmac(sha256, utf8.encode('deployment-secret'), utf8.encode('server-key\0k1'))).slice(0, 32);
    expect(await createKeyFingerprinter('deployment-secret')('k1')).toBe(expected);
  });

  it('is no unsalted SHA-256 of the key, so a weak key cannot be looked up from its fingerprint', async () => {
    const fingerprint = await createKeyFingerprinter('deployment-secret')('k1');
    // sha256("k1"), the fingerprint this replaces: its first 48 bits were the access log's `key:6ab9f1eb8f7d`.
    expect(fingerprint.startsWith('6ab9f1eb8f7d')).toBe(false);
    expect(fingerprint).not.toContain('k1');
  });

  it('gives one key the same fingerprint under one secret and another under another', async () => {
    const a = createKeyFingerprinter('secret-a');
    expect(await a('key')).toBe(await createKeyFingerprinter('secret-a')('key'));
    expect(await a('key')).not.toBe(await createKeyFingerprinter('secret-b')('key'));
    expect(await a('key')).toBe(await createKeyFingerprinter(new TextEncoder().encode('secret-a'))('key'));
  });

  it('uses a random secret of its own when none is given', async () => {
    expect(await createKeyFingerprinter()('key')).not.toBe(await createKeyFingerprinter()('key'));
  });

  it('refuses an empty secret', () => {
    expect(() => createKeyFingerprinter('')).toThrow(TypeError);
  });
});

describe('createStaticKeyStore', () => {
  it('answers a known key with its fingerprint under the secret and an unknown one with null', async () => {
    const store = createStaticKeyStore(['alpha-key', 'beta-key', ''], { fingerprintSecret: 'deployment-secret' });
    expect(await store.verify('beta-key')).toBe(await createKeyFingerprinter('deployment-secret')('beta-key'));
    expect(await store.verify('gamma-key')).toBeNull();
    expect(await store.verify('')).toBeNull();
    expect(await store.verify('alpha-ke')).toBeNull();
  });

  it('fingerprints without revealing the key', async () => {
    const id = await createStaticKeyStore(['alpha-key']).verify('alpha-key');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(id).not.toContain('alpha');
  });
});
