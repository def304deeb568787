/**
 * Server Keys: a static list compared in constant time, and the fingerprint that names a key's counters.
 * @module
 */
import type { KeyStore } from './back-end.js';
import { constantTimeEqual } from './constant-time.js';

const encoder = new TextEncoder();

/**
 * A non-secret, stable id for a Server Key: the first 128 bits of its SHA-256, in hex. Counters and
 * logs use this, never the key itself (docs/specification.md: Rate-limit counters).
 * @param key - The Server Key.
 * @returns 32 hex digits.
 */
export async function fingerprintKey(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(key)));
  let hex = '';
  for (let i = 0; i < 16; i++) hex += digest[i]!.toString(16).padStart(2, '0');
  return hex;
}

/**
 * A key store over a fixed list of keys. Every lookup compares the supplied key with every known
 * key in constant time, so neither which key matched nor how much of it matched shows in timing.
 * @param keys - The Server Keys; empty strings are ignored.
 * @returns The key store.
 * @example
 * ```ts
 * const app = createCatalogueApp({ gateway: { keys: createStaticKeyStore(['s3cret']) } });
 * ```
 */
export function createStaticKeyStore(keys: readonly string[]): KeyStore {
  const known = keys.filter((key) => key.length > 0);
  let ids: Promise<string[]> | undefined;
  return {
    verify(key) {
      let match = -1;
      for (let i = 0; i < known.length; i++) {
        // No early exit: every key is compared whatever the outcome.
        if (constantTimeEqual(key, known[i]!)) match = i;
      }
      if (match < 0) return null;
      ids ??= Promise.all(known.map(fingerprintKey));
      return ids.then((all) => all[match]!);
    },
  };
}
