/**
 * The code a docs page shows under an `<!-- example: file#region… -->` line: the named regions of
 * a file in docs/examples. `scripts/sync-doc-snippets.mjs` writes it into the pages and
 * `docs/examples/examples.test.ts` checks that the pages still show it.
 * @module
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The text between `// #region name` and `// #endregion name` in a file, dedented.
 * @param {string} file - The file, relative to the repository root.
 * @param {string} name - The region.
 * @returns {string} The region's text, without leading or trailing blank lines.
 * @throws {Error} when the file has no such region.
 */
export function region(file, name) {
  const lines = readFileSync(`${root}${file}`, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === `// #endregion ${name}`);
  if (start < 0 || end < 0) throw new Error(`${file} has no region "${name}"`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return body.map((l) => l.slice(indent)).join('\n').trim();
}

/**
 * The code an example marker stands for: its regions, in order, a blank line apart.
 * @param {string} marker - What the `<!-- example: … -->` line says, e.g. `docs/examples/store.ts#create#serve`.
 * @returns {string} The code.
 */
export function exampleCode(marker) {
  const [file, ...regions] = marker.split('#');
  return regions.map((name) => region(file, name)).join('\n\n');
}
