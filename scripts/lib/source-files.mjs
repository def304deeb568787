/**
 * The source data the build scripts read (files outside this repository, listed in
 * packages/demo-data/NOTICE.md): where it is, how to read it, and a clear failure when it is not
 * there, instead of an ENOENT stack trace.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The folder of the source data: `SHARED_DATA`, or by default a `shared/data` folder beside the repository. */
export const sourceDataDir = process.env.SHARED_DATA ? path.resolve(process.env.SHARED_DATA) : path.resolve(repoRoot, '..', 'shared', 'data');

/**
 * Reads one source file as UTF-8 text, gunzipping it when its name ends in `.gz`.
 * @param {string} file - The file, relative to {@link sourceDataDir}.
 * @returns {string} Its text.
 */
export function readSourceText(file) {
  const bytes = fs.readFileSync(path.join(sourceDataDir, file));
  return (file.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes).toString('utf8');
}

/**
 * Reads and parses one JSON source file (gzipped or not).
 * @param {string} file - The file, relative to {@link sourceDataDir}.
 * @returns {any} The parsed value.
 */
export const readSourceJson = (file) => JSON.parse(readSourceText(file));

/**
 * Exits the process with a message naming the missing source files, if any are missing.
 * @param {string} script - The npm script name, e.g. "build:demo-data".
 * @param {string} dir - The folder the files are read from.
 * @param {string[]} files - The files (relative to `dir`) the script reads.
 */
export function requireSourceFiles(script, dir, files) {
  const missing = files.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length === 0) return;
  console.error(
    `npm run ${script} rebuilds the committed demo dataset from source data that is not part of this repository.\n` +
      `Missing in ${dir}:\n${missing.map((f) => `  - ${f}`).join('\n')}\n` +
      'Set SHARED_DATA to the folder that holds these files (their origins are listed in packages/demo-data/NOTICE.md).\n' +
      'You do not need them to run, test or build the project: the built dataset is in packages/demo-data/data.',
  );
  process.exit(1);
}
