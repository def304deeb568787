/**
 * The NDJSON twin of a bench data file, for the importer: it reads a JSON document whole only up to
 * its size limit, while NDJSON lines stream at any size.
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * The path of `anime.ndjson` beside `anime.json` (one record per line), written when missing.
 * @param file - A JSON array of records.
 * @param records - Its records, when already parsed.
 */
export function ndjsonOf(file: string, records?: readonly unknown[]): string {
  const out = file.replace(/\.json$/, '.ndjson');
  if (!existsSync(out)) {
    const list = records ?? (JSON.parse(readFileSync(file, 'utf8')) as unknown[]);
    writeFileSync(out, list.map((r) => JSON.stringify(r)).join('\n') + '\n');
  }
  return out;
}
