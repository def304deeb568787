/**
 * Server Keys: a static list compared in constant time, and the keyed fingerprint that names a key's
 * counters and log lines.
 * @module
 */
import type { KeyStore } from './back-end.js';
import { constantTimeEqual } from './constant-time.js';

const encoder = new TextEncoder();

/**
 * A deployment's secret for fingerprints: text (its UTF-8 bytes) or bytes. Every instance of one
 * deployment should have the same, so that they name a key or a client alike; keep it as secret as
 * the Server Keys (`openssl rand -hex 32` makes a good one).
 */
export type FingerprintSecret = string | Uint8Array;

/**
 * The bytes of a fingerprint secret; a random 32 bytes when none is given.
 * @param secret - The secret, or `undefined` for a random one of this process.
 * @returns The key bytes for HMAC-SHA-256.
 * @throws TypeError when the secret is empty.
 */
export function toSecretBytes(secret: FingerprintSecret | undefined): Uint8Array<ArrayBuffer> {
  if (secret === undefined) return crypto.getRandomValues(new Uint8Array(32));
  // A copy: the caller's bytes may change later, or sit on a SharedArrayBuffer Web Crypto refuses.
  const bytes = typeof secret === 'string' ? encoder.encode(secret) : new Uint8Array(secret);
  if (bytes.length === 0) throw new TypeError('fingerprintSecret must not be empty');
  return bytes;
}

/**
 * Makes the fingerprint function of a deployment: HMAC-SHA-256 (RFC 2104) of the key under the
 * secret, its first 128 bits in hex, computed with Web Crypto. Counters, the Redis key set and
 * the access log use this, never the key itself (docs/specification.md: Rate-limit counters).
 * Without the secret a fingerprint cannot be checked against guessed keys, so a weak key cannot be
 * recovered from logs or a copy of Redis (a plain SHA-256 of it could be, by trying candidates).
 * @param secret - The deployment's secret. @default a random secret of this fingerprinter, so that
 *   its fingerprints match no other process's
 * @returns A function from a key to 32 hex digits.
 * @throws TypeError when the secret is empty.
 * @example
 * ```ts
 * const fingerprint = createKeyFingerprinter(process.env.FINGERPRINT_SECRET);
 * await fingerprint('s3cret'); // 32 hex digits, the same on every instance with that secret
 * ```
 */
export function createKeyFingerprinter(secret?: FingerprintSecret): (key: string) => Promise<string> {
  const hmacKey = crypto.subtle.importKey('raw', toSecretBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return async (key) => {
    // Labelled, so that the access log's keyed hash of a client address under the same secret
    // (see observe.ts) never equals a key's fingerprint.
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey, encoder.encode(`server-key\0${key}`)));
    let hex = '';
    for (let i = 0; i < 16; i++) hex += mac[i]!.toString(16).padStart(2, '0');
    return hex;
  };
}

/** Options of {@link createStaticKeyStore}. */
export interface StaticKeyStoreOptions {
  /** The deployment's secret for the keys' fingerprints. @default a random secret of this store */
  fingerprintSecret?: FingerprintSecret | undefined;
}

/**
 * A key store over a fixed list of keys. Every lookup compares the supplied key with every known
 * key in constant time, so neither which key matched nor how much of it matched shows in timing.
 * @param keys - The Server Keys; empty strings are ignored.
 * @param options - The fingerprint secret.
 * @returns The key store.
 * @throws TypeError when the secret is empty.
 * @example
 * ```ts
 * const keys = createStaticKeyStore(['s3cret'], { fingerprintSecret: process.env.FINGERPRINT_SECRET });
 * const app = createCatalogueApp({ gateway: { keys } });
 * ```
 */
export function createStaticKeyStore(keys: readonly string[], options: StaticKeyStoreOptions = {}): KeyStore {
  const known = keys.filter((key) => key.length > 0);
  const fingerprint = createKeyFingerprinter(options.fingerprintSecret);
  // The keys' fingerprints, made once (HMAC, asynchronous in Web Crypto), then answered at once.
  let ids: string[] | undefined;
  let making: Promise<string[]> | undefined;
  return {
    verify(key) {
      let match = -1;
      for (let i = 0; i < known.length; i++) {
        // No early exit: every key is compared whatever the outcome.
        if (constantTimeEqual(key, known[i]!)) match = i;
      }
      if (match < 0) return null;
      if (ids !== undefined) return ids[match]!;
      making ??= Promise.all(known.map(fingerprint)).then((all) => (ids = all));
      return making.then((all) => all[match]!);
    },
  };
}
