/**
 * What a string takes in memory.
 * @module
 */

// A string of Latin-1 characters only takes one byte a character in V8 and JavaScriptCore; any other takes two.
const WIDE = /[^\u0000-\u00ff]/;

/**
 * The bytes a string's characters take in memory (not its UTF-8 length).
 * @param text - The string.
 * @returns Its length, or twice its length when it holds a character past U+00FF.
 */
export function stringSize(text: string): number {
  return WIDE.test(text) ? 2 * text.length : text.length;
}

/**
 * The length of a string in UTF-8, without encoding it: exact for well-formed text, which
 * `JSON.stringify`'s output always is (it escapes an unpaired surrogate), where `TextEncoder`
 * would write an unpaired surrogate as the three bytes of U+FFFD and this counts two.
 * @param text - The string.
 * @returns Its UTF-8 length in bytes.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    // Two bytes up to U+07FF and for each half of a surrogate pair (four in all), three otherwise.
    bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}
