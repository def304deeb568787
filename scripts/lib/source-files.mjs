/**
 * A clear failure when the source data a build script reads is not there, instead of an ENOENT
 * stack trace: which files are needed, where they were looked for and how to point at them.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';

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
