/**
 * Which catalogue the example serves, from the environment:
 * - `DATA`: a snapshot file, as `catalogue-api import FILE --store memory-snapshot --out FILE` writes
 *   it (`{ "anime": [...], "manga": [...], … }`, core's `CatalogueData`), served from memory. Read
 *   whole at start; import into it again and restart to serve the new records.
 * - `DATABASE_URL`: PostgreSQL. The server never seeds a schema unasked: with `DEMO_DATA=on` it
 *   seeds the demo dataset into a schema that holds no anime (to try the example on PostgreSQL);
 *   otherwise an empty schema serves an empty catalogue until `catalogue-api import` fills it.
 * - neither: the embedded demo dataset, from memory (`DEMO_DATA=off`: an empty catalogue).
 *
 * `DATA` with `DATABASE_URL`, or with `DEMO_DATA=on`, is refused (exit code 2): the records would
 * come from two places. `catalogue-api delete --demo` removes a seeded demo from PostgreSQL.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { EnvError } from '@catalogue-api/core';
import { isCollectionName, type CatalogueData } from '@catalogue-api/core/store';

/** The settings {@link chooseCatalogue} reads. */
export interface CatalogueDataEnv {
  DATA: string | undefined;
  DEMO_DATA: boolean | undefined;
  DATABASE_URL: string | undefined;
}

/** What to serve: a snapshot file, PostgreSQL (seeding the demo or not), or the demo or nothing from memory. */
export type CatalogueChoice =
  | { kind: 'snapshot'; file: string }
  | { kind: 'postgres'; seedDemo: boolean }
  | { kind: 'memory'; demo: boolean };

/**
 * Decides what the example serves.
 * @param env - `DATA`, `DEMO_DATA` and `DATABASE_URL`, as `readServerEnv` read them.
 * @returns The choice.
 * @throws EnvError for `DATA` with `DATABASE_URL` or with `DEMO_DATA=on`.
 */
export function chooseCatalogue(env: CatalogueDataEnv): CatalogueChoice {
  if (env.DATA !== undefined) {
    if (env.DATABASE_URL !== undefined) {
      throw new EnvError('DATA', 'DATA (a snapshot file served from memory) and DATABASE_URL (PostgreSQL) are both set: unset one, or import the file into PostgreSQL with catalogue-api import');
    }
    if (env.DEMO_DATA === true) throw new EnvError('DATA', 'DATA and DEMO_DATA=on are both set: the snapshot is served alone; unset DEMO_DATA');
    return { kind: 'snapshot', file: env.DATA };
  }
  if (env.DATABASE_URL !== undefined) return { kind: 'postgres', seedDemo: env.DEMO_DATA === true };
  return { kind: 'memory', demo: env.DEMO_DATA !== false };
}

/**
 * Reads a snapshot file: a JSON object whose keys are collections of core's `COLLECTIONS` and whose
 * values are arrays of records, as the importer wrote them (validated then).
 * @param file - The path.
 * @returns The records.
 * @throws EnvError when the file cannot be read or is not a snapshot: starting again cannot help.
 */
export async function readSnapshot(file: string): Promise<CatalogueData> {
  const refuse = (why: string): never => {
    throw new EnvError('DATA', `DATA must be a snapshot file written by catalogue-api import --store memory-snapshot, not "${file}": ${why}`);
  };
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    refuse((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    refuse(`not JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return refuse('not a JSON object of collections');
  for (const [name, records] of Object.entries(data)) {
    if (!isCollectionName(name)) refuse(`"${name}" is not a collection of the catalogue`);
    if (!Array.isArray(records)) refuse(`"${name}" is not an array of records`);
  }
  return data as CatalogueData;
}

/**
 * How many records a dataset holds, for the start-up line.
 * @param data - The records.
 */
export function countRecords(data: CatalogueData): Record<string, number> {
  return Object.fromEntries(Object.entries(data).map(([name, records]) => [name, (records as unknown[]).length]));
}
