/**
 * `catalogue-api delete`: removes records from a PostgreSQL catalogue, by resource and id, or the
 * demo dataset a server seeded (`DEMO_DATA=on`).
 *
 * ```
 * catalogue-api delete --resource anime 1 5 20 [--database-url URL] [--schema catalogue]
 * catalogue-api delete --demo [--database-url URL] [--schema catalogue]
 * ```
 *
 * An id is a record's key as the importer replaces by: `20` for anime 20, `20:17` for character 17
 * of anime 20 (`--resource animeCharacters`). Records of other resources that hang off a deleted one
 * (its characters, episodes…) stay until deleted by their own resource. `--demo` deletes, in every
 * resource, each record of the demo dataset that is still exactly as the seed wrote it: a record an
 * import replaced under a demo id is the user's and is kept. Exit codes as the importer's: 0 done,
 * 2 usage error, 3 the database failed (what was deleted before is deleted; re-run to finish).
 * @module
 */
import { parseArgs } from 'node:util';
import { collectionKey, COLLECTION_NAMES, type CatalogueData } from '@catalogue-api/core/store';
import { createPostgresStore, type PostgresStore } from './catalogue-store.js';
import { quoteIdentifier, tableName } from './internal/tables.js';
import { isResourceName, RESOURCE_NAMES } from './resources.js';

/** The usage of `delete`, for `--help` and usage errors. */
export const DELETE_USAGE = `usage: catalogue-api delete --resource R ID... | --demo [options]

  --resource R       what the ids name; one of
                     ${RESOURCE_NAMES.join(', ')}
  ID...              record keys: 20 (anime 20), 20:17 (character 17 of anime 20)
  --demo             delete the demo dataset's records still exactly as seeded (DEMO_DATA=on)
  --database-url U   PostgreSQL URL (default: $DATABASE_URL)
  --schema S         PostgreSQL schema (default: catalogue)

Exit codes: 0 done; 2 usage error; 3 the database failed (re-run to finish).`;

/** A refusal of the arguments: exit code 2, with the usage. */
export class DeleteUsageError extends Error {}

/** Keys compared per statement when deleting the demo. */
const DEMO_BATCH = 1000;

/** JSON with every object's keys sorted: what PostgreSQL's `jsonb` keeps is the same value in another key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * Deletes, in every resource, the records of `data` that the store still holds exactly as they are in it.
 * @param store - A migrated store.
 * @param data - The dataset that was seeded (the demo).
 * @returns How many records were deleted, by resource (resources with none left out).
 */
export async function deleteSeeded(store: PostgresStore, data: CatalogueData): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  const schema = quoteIdentifier(store.schema);
  for (const name of COLLECTION_NAMES) {
    const records = (data[name] ?? []) as readonly unknown[];
    const table = `${schema}.${quoteIdentifier(tableName(name))}`;
    for (let i = 0; i < records.length; i += DEMO_BATCH) {
      const wanted = new Map(records.slice(i, i + DEMO_BATCH).map((record) => [collectionKey(name, record), canonical(record)]));
      const rows = await store.sql.unsafe<{ key: string; record: unknown }[]>(`select key, record from ${table} where key = any($1::text[])`, [[...wanted.keys()]]);
      const same = rows.filter((row) => wanted.get(row.key) === canonical(row.record)).map((row) => row.key);
      const count = await store.delete(name, same);
      if (count > 0) deleted[name] = (deleted[name] ?? 0) + count;
    }
  }
  if (Object.keys(deleted).length > 0) await store.analyze();
  return deleted;
}

/**
 * Runs `catalogue-api delete`: a usage error is told with the usage (exit code 2).
 * @param argv - The arguments after `delete`.
 * @returns The exit code.
 * @throws Error when the database fails (the CLI says so, exit code 3).
 */
export async function runDelete(argv: string[]): Promise<number> {
  try {
    return await deleteRecords(argv);
  } catch (error) {
    if (error instanceof DeleteUsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${DELETE_USAGE}`);
      return 2;
    }
    throw error;
  }
}

async function deleteRecords(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { resource: { type: 'string' }, demo: { type: 'boolean' }, 'database-url': { type: 'string' }, schema: { type: 'string' } },
  });
  if (values.demo && (values.resource !== undefined || positionals.length > 0)) throw new DeleteUsageError('--demo takes no --resource and no ids');
  if (!values.demo) {
    if (values.resource === undefined) throw new DeleteUsageError('delete needs --resource and ids, or --demo');
    if (!isResourceName(values.resource)) throw new DeleteUsageError(`unknown --resource "${values.resource}"`);
    if (positionals.length === 0) throw new DeleteUsageError('delete --resource needs at least one id');
    if (positionals.some((id) => !/^[\w:.-]{1,200}$/.test(id))) throw new DeleteUsageError('an id is a record key such as 20 or 20:17');
  }
  const url = values['database-url'] ?? process.env.DATABASE_URL;
  if (!url) throw new DeleteUsageError('delete needs --database-url or DATABASE_URL');
  if (!/^postgres(ql)?:$/.test(URL.parse(url)?.protocol ?? '')) throw new DeleteUsageError(`--database-url (or DATABASE_URL) must be a postgres:// URL, got "${url}"`);

  const store = createPostgresStore({ url, schema: values.schema, max: 2, timeoutMs: 60_000 });
  try {
    await store.migrate();
    if (values.demo) {
      let demo: CatalogueData;
      try {
        // Not a dependency of this package: only this command needs the ~100 MB dataset.
        demo = (await import('@catalogue-api/demo-data')).demoData;
      } catch {
        console.error('catalogue-api: delete --demo needs @catalogue-api/demo-data installed (npm install @catalogue-api/demo-data)');
        return 3;
      }
      const deleted = await deleteSeeded(store, demo);
      const total = Object.values(deleted).reduce((sum, n) => sum + n, 0);
      const detail = Object.entries(deleted).map(([name, n]) => `${n} ${name}`).join(', ');
      console.error(`demo: ${total} records deleted from PostgreSQL schema ${store.schema}${detail ? ` (${detail})` : ''}`);
      return 0;
    }
    const resource = values.resource as (typeof RESOURCE_NAMES)[number];
    const count = await store.delete(resource, positionals);
    if (count > 0) await store.analyze();
    console.error(`${resource}: ${count} of ${new Set(positionals).size} records deleted from PostgreSQL schema ${store.schema}${count < new Set(positionals).size ? ' (the others were not there)' : ''}`);
    return 0;
  } finally {
    await store.close();
  }
}
