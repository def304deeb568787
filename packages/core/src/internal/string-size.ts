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
