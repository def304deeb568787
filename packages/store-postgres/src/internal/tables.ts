/**
 * The tables of the catalogue, generated from core's `COLLECTIONS`: one table per collection
 * (`animeCharacters` → `anime_characters`) holding each record whole (`record json`: `jsonb` would
 * re-order its keys, and answers must keep Jikan's field order byte for byte), its key, its place in
 * the stored order (`seq`, taken at its first write) and one typed, indexed column per declared
 * field, computed by core's `fieldValues` when the record is written. A searchable collection also
 * has `<table>_texts` (its folded search texts, `pg_trgm`-indexed), a `_prefixes` column (the one-
 * and two-letter word prefixes of those texts), a `<table>_text_matches` function, and for the
 * one-edit fallback of search `<table>_edits` (every word of those texts filed under core's
 * `wordEditKeys`) and a `<table>_edit_matches` function.
 * A collection with `counted` fields has `<table>_counts` (how many records hold each value of
 * each); every collection has `<table>_groups` (how many records hold each combination of the
 * values of its `grouped` fields; its total when it has none) and, per grouped list field,
 * `<table>_<field>_groups` (how many hold each element with each combination), all kept by
 * statement-level triggers from each write's transition tables.
 *
 * {@link syncTables} brings a schema's tables up to `COLLECTIONS` on every `migrate()`: a collection
 * or field core adds gets its table or column (filled from the stored records) and indexes, without
 * a migration of its own.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Sql, TransactionSql } from 'postgres';
import {
  COLLECTION_NAMES,
  COLLECTIONS,
  collectionKey,
  fieldValues,
  isCollectionName,
  editWords,
  normalizeTitle,
  wordEditKeys,
  type CollectionName,
  type FieldSpec,
  type FieldType,
} from '@catalogue-api/core/store';

/** Quotes an SQL identifier. */
export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/**
 * The table of a collection: its name in snake case (`animeCharacters` → `anime_characters`).
 * @param collection - The collection.
 */
export function tableName(collection: CollectionName): string {
  return collection.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Each field type's column type (see `FieldType` in core). */
const COLUMN_TYPES: Record<FieldType, string> = {
  int: 'integer',
  float: 'double precision',
  text: 'text collate "C"',
  bool: 'boolean',
  ints: 'integer[] not null default \'{}\'',
  texts: 'text[] not null default \'{}\'',
};

/** Each field type's column type as `format_type` names it. */
const FORMATTED_TYPES: Record<FieldType, string> = {
  int: 'integer',
  float: 'double precision',
  text: 'text',
  bool: 'boolean',
  ints: 'integer[]',
  texts: 'text[]',
};

/** Columns every table has; no field may be named so. */
const RESERVED = new Set(['key', 'seq', 'record', '_prefixes']);

/** Whether a field type holds arrays. */
export const isArrayType = (type: FieldType): boolean => type === 'ints' || type === 'texts';

/**
 * The fields of a collection, checked to be usable as column names.
 * @param collection - The collection.
 * @returns `[name, spec]` pairs in declaration order.
 */
export function fieldsOf(collection: CollectionName): Array<[string, FieldSpec<unknown>]> {
  const fields = Object.entries(COLLECTIONS[collection].fields) as Array<[string, FieldSpec<unknown>]>;
  for (const [name] of fields) {
    if (RESERVED.has(name) || !/^[a-z][a-z0-9_]*$/.test(name)) throw new TypeError(`field "${name}" of ${collection} cannot be a column`);
  }
  return fields;
}

/** Whether a collection is searchable. */
export const isSearchable = (collection: CollectionName): boolean => COLLECTIONS[collection].search !== undefined;

/** The tables, columns, indexes and functions a schema holds. */
interface Existing {
  /** Each table's columns: their type (`format_type`) and storage (`p` plain, `m` main, `x` extended). */
  columns: Map<string, Map<string, { type: string; storage: string }>>;
  /** Each table's storage parameters, as `name=value`. */
  options: Map<string, Set<string>>;
  relations: Set<string>;
  /** Each function's name and source text. */
  functions: Map<string, string>;
  triggers: Set<string>;
}

async function existing(q: Sql, schema: string): Promise<Existing> {
  const columns = new Map<string, Map<string, { type: string; storage: string }>>();
  const rows = await q<{ table: string; column: string; type: string; storage: string }[]>`
    select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type, a.attstorage as storage
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`;
  for (const r of rows) {
    let table = columns.get(r.table);
    if (!table) columns.set(r.table, (table = new Map()));
    table.set(r.column, { type: r.type, storage: r.storage });
  }
  const options = await q<{ table: string; options: string[] | null }[]>`
    select c.relname as table, c.reloptions as options from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and c.relkind = 'r'`;
  const relations = await q<{ name: string }[]>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${schema}`;
  const functions = await q<{ name: string; source: string }[]>`
    select p.proname as name, p.prosrc as source from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = ${schema}`;
  const triggers = await q<{ name: string }[]>`
    select g.tgname as name from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and not g.tgisinternal`;
  return {
    columns,
    options: new Map(options.map((o) => [o.table, new Set(o.options ?? [])])),
    relations: new Set(relations.map((r) => r.name)),
    functions: new Map(functions.map((f) => [f.name, f.source])),
    triggers: new Set(triggers.map((t) => t.name)),
  };
}

/**
 * The text match function of a searchable table: the texts containing `infix` (a `LIKE` pattern),
 * then those holding a stretch within `pg_trgm` word similarity 0.5 of `fuzzy`, each with that
 * similarity (1 for a containing text), computed once. The settings hold whatever the connection's:
 * plans for the actual values (a generic plan cannot tell a rare trigram from a common one), and the
 * GIN index even when its estimate for a long query's many trigrams exceeds a sequential scan's,
 * which runs `word_similarity` on every text (seconds). Two statements, not one OR: for an OR of
 * both the planner picks a scan of every row.
 */
const textMatchesFunction = (s: string, t: string) =>
  matchFunction(
    `${s}.${quoteIdentifier(`${t}_text_matches`)}`,
    'key text, title text, wsim real',
    `    return query select x.key, x.title, 1::real from ${s}.${quoteIdentifier(`${t}_texts`)} x where x.title like infix;
    return query select x.key, x.title, word_similarity(fuzzy, x.title) from ${s}.${quoteIdentifier(`${t}_texts`)} x
      where fuzzy <% x.title and x.title not like infix;`,
  );

/**
 * The one-edit match function of a searchable table: the keys and texts of the records with a text
 * holding a word filed under one of `keys` (core's `queryEditKeys`) in `<table>_edits`. Each word is
 * looked up in the texts' trigram index as a whole text, or a word at its start, its end or inside
 * (four `LIKE`s, a bitmap OR): a word of two letters has no trigram of its own, but with the
 * spaces around it, it has. Settings as {@link textMatchesFunction}'s, for the same reasons.
 * @param s - The schema (quoted).
 * @param t - The table's name.
 */
const editMatchesFunction = (s: string, t: string) => `
  create function ${s}.${quoteIdentifier(`${t}_edit_matches`)}(keys text[]) returns table (key text, title text)
  language plpgsql stable
  set plan_cache_mode = force_custom_plan
  set enable_seqscan = off
  as $f$
  declare
    w text;
  begin
    for w in select distinct e.word from ${s}.${quoteIdentifier(`${t}_edits`)} e where e.edit = any(keys) loop
      return query select x.key, x.title from ${s}.${quoteIdentifier(`${t}_texts`)} x
        where x.title like w or x.title like w || ' %' or x.title like '% ' || w or x.title like '% ' || w || ' %';
    end loop;
  end
  $f$;`;

/**
 * A match function `name(infix, fuzzy)`: `returns` and `body` inside its settings (see
 * {@link textMatchesFunction} for why they are these).
 * @param name - The function's qualified name.
 * @param returns - Its result columns.
 * @param body - Its statements.
 */
const matchFunction = (name: string, returns: string, body: string) => `
  create function ${name}(infix text, fuzzy text) returns table (${returns})
  language plpgsql stable
  set pg_trgm.word_similarity_threshold = 0.5
  set plan_cache_mode = force_custom_plan
  set enable_seqscan = off
  as $f$
  begin
${body}
  end
  $f$;`;

/**
 * The fields of a collection whose counts per value the store keeps (`FieldSpec.counted`), so
 * that a `tally` of the whole collection reads a few rows instead of every record.
 * @param collection - The collection.
 */
export function countedFields(collection: CollectionName): Array<[string, FieldSpec<unknown>]> {
  return fieldsOf(collection).filter(([, spec]) => spec.counted === true && spec.type !== 'bool');
}

/** The table of a collection's kept counts: one row per counted field and value. */
export const countsTable = (collection: CollectionName): string => `${tableName(collection)}_counts`;

/**
 * The fields of a collection whose combinations the store counts (`FieldSpec.grouped`), so that
 * the total of a list testing only them sums a few rows instead of counting every match.
 * @param collection - The collection.
 */
export function groupedFields(collection: CollectionName): Array<[string, FieldSpec<unknown>]> {
  return fieldsOf(collection).filter(([, spec]) => spec.grouped === true && !isArrayType(spec.type));
}

/**
 * The table of a collection's kept group counts: one row per combination of its grouped fields'
 * values, with the same columns; without grouped fields, one row: how many records it holds.
 */
export const groupsTable = (collection: CollectionName): string => `${tableName(collection)}_groups`;

/**
 * The list fields of a collection whose elements the store counts per combination of its grouped
 * fields (`FieldSpec.grouped` on an array field: tags), so that the total of a list testing one
 * element of it and grouped fields (a genre filter) sums a few rows too.
 * @param collection - The collection.
 */
export function groupedLists(collection: CollectionName): Array<[string, FieldSpec<unknown>]> {
  return fieldsOf(collection).filter(([, spec]) => spec.grouped === true && isArrayType(spec.type));
}

/**
 * The table of a list field's kept group counts: one row per element and combination of the
 * grouped fields' values, the element as a list of one in a column named as the field, so that a
 * condition written for the collection's table (`tags @> '{4}'`) selects its rows.
 * @param collection - The collection.
 * @param field - A field of {@link groupedLists}.
 */
export const listGroupsTable = (collection: CollectionName, field: string): string => `${tableName(collection)}_${field}_groups`;

/**
 * A table of counts that a collection's triggers keep as its records are written: each insert,
 * update or delete statement adds what its rows contribute once, from its transition tables.
 */
interface KeptCounts {
  /** The table (unquoted). */
  name: string;
  /** Its `create table` statement. */
  create: string;
  /** Its triggers: the function's name and source, and the `create trigger` statement. */
  triggers: Array<{ name: string; source: string; trigger: string }>;
  /** The statements that count every record again, replacing what it holds. */
  recount: string[];
}

/** What makes a {@link KeptCounts} table: see {@link keptTables}. */
interface KeptSpec {
  /** The table (unquoted). */
  name: string;
  /** Its column definitions, parenthesized. */
  columns: string;
  /** `count` or `group`: its triggers are `<collection table>_<kind>_<insert|update|delete>`. */
  kind: string;
  /**
   * What rows add to the counts, or take from them.
   * @param rows - A table or transition table of the collection.
   * @param sign - 1 for rows written, -1 for rows replaced or deleted.
   */
  contributions(rows: string, sign: 1 | -1): string;
  /**
   * The statement that adds changes (rows of `contributions`) up into the counts.
   * @param changes - The changes, as a query.
   */
  add(changes: string): string;
}

/** A kept table's statements: its table, its triggers, its recount. */
function keptCounts(s: string, collection: CollectionName, { name, columns, kind, contributions, add }: KeptSpec): KeptCounts {
  const t = tableName(collection);
  const ops = [
    { op: 'insert', referencing: 'new table as new_rows', changes: contributions('new_rows', 1) },
    { op: 'update', referencing: 'old table as old_rows new table as new_rows', changes: `${contributions('new_rows', 1)} union all ${contributions('old_rows', -1)}` },
    { op: 'delete', referencing: 'old table as old_rows', changes: contributions('old_rows', -1) },
  ];
  const triggers = ops.map(({ op, referencing, changes }) => {
    const trigger = `${t}_${kind}_${op}`;
    return {
      name: trigger,
      source: `begin${add(changes)}
    return null;
  end`,
      trigger: `create trigger ${quoteIdentifier(trigger)} after ${op} on ${s}.${quoteIdentifier(t)} referencing ${referencing} for each statement execute function ${s}.${quoteIdentifier(trigger)}()`,
    };
  });
  const table = `${s}.${quoteIdentifier(name)}`;
  return { name, create: `create table ${table} ${columns}`, triggers, recount: [`delete from ${table}`, add(contributions(`${s}.${quoteIdentifier(t)}`, 1))] };
}

/**
 * The counts a collection keeps: per value of each counted field (`<table>_counts`: `field`,
 * `value` as text, `n`), and per combination of its grouped fields (`<table>_groups`: `grp`, the
 * combination as JSON text, the grouped fields' own columns, `n`; a combination no record holds
 * stays at 0; without grouped fields, `[]`: every record), and per element of a grouped list
 * field and combination (`<table>_<field>_groups`, the same with the element first). Changes are
 * added in a fixed order, so that concurrent writers lock rows alike.
 */
function keptTables(s: string, collection: CollectionName): KeptCounts[] {
  const kept: KeptCounts[] = [];
  const counted = countedFields(collection);
  if (counted.length > 0) {
    const counts = `${s}.${quoteIdentifier(countsTable(collection))}`;
    kept.push(
      keptCounts(s, collection, {
        name: countsTable(collection),
        columns: '(field text collate "C" not null, value text collate "C" not null, n bigint not null, primary key (field, value))',
        kind: 'count',
        contributions: (rows, sign) =>
          counted
            .map(([name, spec]) => {
              const column = `${rows}.${quoteIdentifier(name)}`;
              return isArrayType(spec.type)
                ? `select '${name}' as field, v::text as value, ${sign} as d from ${rows} cross join unnest(${column}) v`
                : `select '${name}' as field, ${column}::text as value, ${sign} as d from ${rows} where ${column} is not null`;
            })
            .join(' union all '),
        add: (changes) => `
    insert into ${counts} as c (field, value, n)
    select field, value, sum(d) from (${changes}) x group by field, value having sum(d) <> 0 order by field, value
    on conflict (field, value) do update set n = c.n + excluded.n;`,
      }),
    );
  }
  const grouped = groupedFields(collection);
  const columns = grouped.map(([name]) => quoteIdentifier(name));
  const definitions = grouped.map(([name, spec]) => `${quoteIdentifier(name)} ${COLUMN_TYPES[spec.type]}`);
  /** Each of some SQL items followed by a comma (none: empty). */
  const lead = (items: readonly string[]) => items.map((item) => `${item}, `).join('');
  /** The kept counts of the grouped fields' combinations, or of a list field's elements with them. */
  const groupsOf = (name: string, kind: string, list?: [string, FieldSpec<unknown>]) => {
    const table = `${s}.${quoteIdentifier(name)}`;
    const all = list ? [quoteIdentifier(list[0]), ...columns] : columns;
    const listed = list ? [`${quoteIdentifier(list[0])} ${COLUMN_TYPES[list[1].type]}`] : [];
    return keptCounts(s, collection, {
      name,
      columns: `(grp text collate "C" primary key, ${lead([...listed, ...definitions])}n bigint not null)`,
      kind,
      // Each distinct element once, as a list of one.
      contributions: (rows, sign) =>
        list
          ? `select array[e.v] as ${all[0]!}, ${lead(columns)}${sign} as d from ${rows} cross join lateral (select distinct unnest(${rows}.${all[0]!}) as v) e`
          : `select ${lead(columns)}${sign} as d from ${rows}`,
      add: (changes) => `
    insert into ${table} as g (grp, ${lead(all)}n)
    select json_build_array(${all.join(', ')})::text, ${lead(all)}sum(d) from (${changes}) x ${all.length > 0 ? `group by ${all.join(', ')} ` : ''}having sum(d) <> 0 order by 1
    on conflict (grp) do update set n = g.n + excluded.n;`,
    });
  };
  // Without grouped fields, one row: the collection's total.
  kept.push(groupsOf(groupsTable(collection), 'group'));
  for (const list of groupedLists(collection)) kept.push(groupsOf(listGroupsTable(collection, list[0]), `group_${list[0]}`, list));
  return kept;
}


// ---- the change feed ----

/** The feed's table: one row per committed change of a record (`CatalogueStore.changes`). */
export const CHANGES_TABLE = 'catalogue_changes';
/** The feed's head: one row, the last number given and the feed's id. */
export const CHANGE_HEAD_TABLE = 'catalogue_change_head';
/** How many changes the feed keeps; older ones are pruned as new ones are written. */
export const KEPT_CHANGES = 100_000;

/**
 * The `LISTEN`/`NOTIFY` channel of a schema's feed: a name within PostgreSQL's 63 bytes whatever
 * the schema's name.
 * @param schema - The schema (unquoted).
 */
export const changesChannel = (schema: string): string => `catalogue_changes_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`;

/** The advisory lock every writer of a schema's records takes first, as a signed 64-bit integer. */
const changesLockKey = (schema: string): string => BigInt.asIntN(64, BigInt(`0x${createHash('sha256').update(`catalogue-api/changes:${schema}`).digest('hex').slice(0, 16)}`)).toString();

/** A function of the feed: its name, source and `create` statement. */
interface FeedFunction {
  name: string;
  source: string;
  create: string;
}

const feedFunction = (s: string, name: string, source: string): FeedFunction => ({
  name,
  source,
  create: `create or replace function ${s}.${quoteIdentifier(name)}() returns trigger language plpgsql as $f$${source}$f$`,
});

/**
 * The functions that feed a schema's changes, shared by every collection table (the collection's
 * name is the trigger's argument; tables with `owners` have functions of their own that read it):
 * - `catalogue_changes_lock`, before any write statement: the schema's writers' lock
 *   (`pg_advisory_xact_lock`, held to the end of the transaction), so that numbers are given in
 *   commit order: a reader that has seen change `n` has seen every change before it, and the
 *   numbers have no gaps (a rolled-back transaction gives its numbers back). Taken before the
 *   statement touches a row, so that no two writers wait on each other's rows and lock;
 * - after it, from its transition tables, one row per record inserted, deleted, or updated to
 *   different JSON text (an update to the same text, such as a refill of new columns, is no
 *   change), numbered from the head row; then `NOTIFY` (sent on commit) with the new head, and the
 *   changes older than the last {@link KEPT_CHANGES} pruned.
 */
function feedFunctions(s: string, schema: string): FeedFunction[] {
  const changes = `${s}.${quoteIdentifier(CHANGES_TABLE)}`;
  const head = `${s}.${quoteIdentifier(CHANGE_HEAD_TABLE)}`;
  const write = (count: string, rows: string, op: string, owners: string) => `
  declare n bigint; base bigint;
  begin
    select count(*) into n ${count};
    if n = 0 then return null; end if;
    update ${head} set seq = seq + n returning seq - n into base;
    insert into ${changes} (seq, collection, key, op, owners, at)
    select base + row_number() over (order by r.seq), tg_argv[0], r.key, '${op}', ${owners}, clock_timestamp() ${rows};
    perform pg_notify('${changesChannel(schema)}', (base + n)::text);
    delete from ${changes} where seq <= base + n - ${KEPT_CHANGES};
    return null;
  end`;
  const differs = 'from new_rows r join old_rows o on o.key = r.key where r.record::text is distinct from o.record::text';
  const none = "'{}'::text[]";
  const functions = [
    feedFunction(
      s,
      'catalogue_changes_lock',
      `
  begin
    perform pg_advisory_xact_lock(${changesLockKey(schema)});
    return null;
  end`,
    ),
  ];
  for (const owned of [false, true]) {
    const suffix = owned ? '_owned' : '';
    functions.push(
      feedFunction(s, `catalogue_changes_insert${suffix}`, write('from new_rows r', 'from new_rows r', 'insert', owned ? 'r.owners' : none)),
      feedFunction(s, `catalogue_changes_update${suffix}`, write(differs, differs, 'update', owned ? 'array(select distinct x from unnest(o.owners || r.owners) x order by x)' : none)),
      feedFunction(s, `catalogue_changes_delete${suffix}`, write('from old_rows r', 'from old_rows r', 'delete', owned ? 'r.owners' : none)),
    );
  }
  return functions;
}

/** The triggers that feed a collection's changes (see {@link feedFunctions}). */
function feedTriggers(s: string, collection: CollectionName): Array<{ name: string; create: string }> {
  const t = tableName(collection);
  const table = `${s}.${quoteIdentifier(t)}`;
  const suffix = Object.hasOwn(COLLECTIONS[collection].fields, 'owners') ? '_owned' : '';
  const argument = `'${collection.replace(/'/g, "''")}'`;
  const ops = [
    { op: 'insert', referencing: 'new table as new_rows' },
    { op: 'update', referencing: 'old table as old_rows new table as new_rows' },
    { op: 'delete', referencing: 'old table as old_rows' },
  ];
  const triggers = ops.map(({ op, referencing }) => ({
    name: `${t}_changes_${op}`,
    create: `create trigger ${quoteIdentifier(`${t}_changes_${op}`)} after ${op} on ${table} referencing ${referencing} for each statement execute function ${s}.catalogue_changes_${op}${suffix}(${argument})`,
  }));
  triggers.push({
    name: `${t}_changes_lock`,
    create: `create trigger ${quoteIdentifier(`${t}_changes_lock`)} before insert or update or delete on ${table} for each statement execute function ${s}.catalogue_changes_lock()`,
  });
  return triggers;
}

/**
 * The narrow index of a collection's common fields (`FieldSpec.common`), if it has any. A list's
 * total or a random pick counts most of a collection; an index-only scan of a few bytes a record
 * reads a fraction of what a scan of the rows does. It leads with the collection's key fields and
 * `seq`, the order of a list by id, so that a random pick (the record at a place in id order) and
 * an id list walk it in order too. Its name carries its columns, so that another set of common
 * fields builds a new index and drops the old one.
 * @param collection - The collection.
 */
function commonIndex(collection: CollectionName): { name: string; definition: string } | undefined {
  const common = fieldsOf(collection)
    .filter(([, spec]) => spec.common === true && !isArrayType(spec.type))
    .map(([name]) => name);
  const leading = COLLECTIONS[collection].key.filter((name) => common.includes(name));
  if (leading.length === 0) return undefined;
  const columns = [...leading, 'seq', ...common.filter((name) => !leading.includes(name))].map(quoteIdentifier);
  const hash = createHash('sha256').update(columns.join(',')).digest('hex').slice(0, 8);
  return { name: `${tableName(collection)}_common_${hash}`, definition: `(${columns.join(', ')})` };
}

/**
 * The autovacuum settings of every collection table: vacuumed once 1 % of its rows changed (the
 * default waits for 20 %; https://www.postgresql.org/docs/current/routine-vacuuming.html#AUTOVACUUM).
 * Totals, id lists and random picks count from indexes alone only over pages the visibility map
 * marks all-visible, and each write clears its page's mark: after 1,800 updates of 30k anime (164
 * of 1,700 pages unmarked) the planner counted the top list by reading the table (6 → 12 ms). A
 * catalogue is read far more than it is written, so these vacuums are cheap and rare.
 */
const VACUUM_OPTIONS = ['autovacuum_vacuum_scale_factor=0.01', 'autovacuum_vacuum_insert_scale_factor=0.01'];

/** Records read per statement when a new column is filled from the stored records. */
const REFILL_BATCH = 1000;

/**
 * The collections whose new columns (or search texts) wait to be filled from their stored records:
 * marked by {@link syncTables}, filled and unmarked by {@link fillTables}.
 */
export const REFILLS_TABLE = 'catalogue_refills';

/**
 * Brings a schema's tables up to `COLLECTIONS`: creates missing tables, columns, indexes and text
 * match functions, re-creates a column whose type changed, and marks the collections whose new
 * columns (or new search texts) must be filled from the records already stored, for
 * {@link fillTables}. Only what is missing is touched, so that an up-to-date schema takes no lock.
 * Run inside `migrate()`'s transaction and advisory lock.
 *
 * The fill waits for a later transaction only when every changed column is new: instances of the
 * previous version read none of them. A re-created column, or one a migration of this transaction
 * dropped (`fillNow`), held something they may still read; it is filled here, while the table's
 * lock keeps them waiting, rather than read empty.
 * @param q - The transaction.
 * @param schema - The schema (unquoted).
 * @param fillNow - Fill in this transaction anyway (a migration ran in it).
 */
export async function syncTables(q: Sql, schema: string, fillNow = false): Promise<void> {
  const s = quoteIdentifier(schema);
  const have = await existing(q, schema);
  const statements: string[] = [];
  const refill = new Set<CollectionName>();
  let recreated = false;
  const recount = new Set<KeptCounts>();
  // The change feed's triggers, once its tables exist (the baseline makes them; see migrations.ts).
  const feed = have.relations.has(CHANGES_TABLE);
  // Sent together, in one round trip: four triggers a table add up.
  const feedStatements: string[] = [];
  if (feed) for (const f of feedFunctions(s, schema)) if (have.functions.get(f.name) !== f.source) feedStatements.push(f.create);
  for (const collection of COLLECTION_NAMES) {
    const t = tableName(collection);
    const table = `${s}.${quoteIdentifier(t)}`;
    const columns = have.columns.get(t);
    if (!columns) {
      // Records go out of line from 128 bytes on, so that the heap scanned by counts and filters
      // holds keys and field values only (a record is a few kB).
      statements.push(
        `create table ${table} (key text primary key, seq bigserial not null, record json not null) with (toast_tuple_target = 128)`,
        `create index ${quoteIdentifier(`${t}_seq`)} on ${table} (seq)`,
      );
    }
    // Records go out of line, field values stay in the row (`main`): a filter, count or tally
    // reads the heap only, not a TOAST chunk per row.
    const unset = VACUUM_OPTIONS.filter((option) => !have.options.get(t)?.has(option));
    if (unset.length > 0) statements.push(`alter table ${table} set (${unset.join(', ')})`);
    const inline = (column: string) => {
      if (columns?.get(column)?.storage !== 'm') statements.push(`alter table ${table} alter column ${quoteIdentifier(column)} set storage main`);
    };
    inline('key');
    const index = (name: string, definition: string) => {
      if (!have.relations.has(name)) statements.push(`create index ${quoteIdentifier(name)} on ${table} ${definition}`);
    };
    for (const [name, spec] of fieldsOf(collection)) {
      const column = quoteIdentifier(name);
      const type = columns?.get(name)?.type;
      if (type !== FORMATTED_TYPES[spec.type]) {
        if (type !== undefined) {
          statements.push(`alter table ${table} drop column ${column}`);
          recreated = true;
        }
        statements.push(`alter table ${table} add column ${column} ${COLUMN_TYPES[spec.type]}`);
        // A re-created column lost its indexes with it.
        for (const suffix of ['', '_asc', '_desc', '_gin']) have.relations.delete(`${t}_${name}${suffix}`);
        if (columns) refill.add(collection);
      }
      if (spec.type === 'text' || isArrayType(spec.type)) inline(name);
      if (isArrayType(spec.type)) index(`${t}_${name}_gin`, `using gin (${column})`);
      else if (spec.ordered) {
        index(`${t}_${name}_asc`, `(${column} asc nulls last, seq)`);
        index(`${t}_${name}_desc`, `(${column} desc nulls last, seq)`);
      } else {
        // Booleans too: `airing` holds for a few percent of anime, and a season's `continuing` list
        // tests it in an OR that PostgreSQL answers from indexes (a bitmap OR) or else by reading
        // every row.
        index(`${t}_${name}`, `(${column})`);
      }
    }
    const common = commonIndex(collection);
    if (common) {
      for (const name of have.relations) {
        if (name.startsWith(`${t}_common_`) && name !== common.name) statements.push(`drop index ${s}.${quoteIdentifier(name)}`);
      }
      index(common.name, common.definition);
    }
    if (isSearchable(collection)) {
      const texts = `${s}.${quoteIdentifier(`${t}_texts`)}`;
      if (!columns?.has('_prefixes')) {
        statements.push(`alter table ${table} add column _prefixes text[] not null default '{}'`);
        if (columns) refill.add(collection);
      }
      inline('_prefixes');
      index(`${t}_prefixes_gin`, 'using gin (_prefixes)');
      if (!have.columns.has(`${t}_texts`)) {
        statements.push(
          `create table ${texts} (key text not null references ${table} (key) on delete cascade, title text not null, primary key (key, title))`,
          `create index ${quoteIdentifier(`${t}_texts_trgm`)} on ${texts} using gin (title gin_trgm_ops)`,
        );
        if (columns) refill.add(collection);
      }
      if (!have.functions.has(`${t}_text_matches`)) statements.push(textMatchesFunction(s, t));
      // Words are filed once and kept: a word no text holds any more matches no text.
      if (!have.columns.has(`${t}_edits`)) {
        statements.push(`create table ${s}.${quoteIdentifier(`${t}_edits`)} (edit text not null, word text not null, primary key (edit, word))`);
        if (columns) refill.add(collection);
      }
      if (!have.functions.has(`${t}_edit_matches`)) statements.push(editMatchesFunction(s, t));
    }
    for (const kept of keptTables(s, collection)) {
      // A trigger function whose text differs counts other fields, or other combinations: the
      // table is made anew (its columns may differ too), the functions replaced, and all counted again.
      const stale = kept.triggers.some(({ name, source }) => have.functions.has(name) && have.functions.get(name) !== source);
      if (!have.columns.has(kept.name) || stale) {
        if (have.columns.has(kept.name)) statements.push(`drop table ${s}.${quoteIdentifier(kept.name)}`);
        statements.push(kept.create);
        recount.add(kept);
      }
      for (const { name, source, trigger } of kept.triggers) {
        if (have.functions.get(name) !== source) {
          statements.push(`create or replace function ${s}.${quoteIdentifier(name)}() returns trigger language plpgsql as $f$${source}$f$`);
          recount.add(kept);
        }
        if (!have.triggers.has(name)) statements.push(trigger);
      }
    }
    if (feed) for (const trigger of feedTriggers(s, collection)) if (!have.triggers.has(trigger.name)) feedStatements.push(trigger.create);
  }
  for (const statement of statements) await q.unsafe(statement);
  if (feedStatements.length > 0) await q.unsafe(feedStatements.join(';\n'));
  const refills = `${s}.${quoteIdentifier(REFILLS_TABLE)}`;
  for (const collection of refill) await q.unsafe(`insert into ${refills} (collection) values ($1) on conflict do nothing`, [collection]);
  // Counted with the new columns still empty: the fill's writes then move each record's counts.
  for (const kept of recount) for (const statement of kept.recount) await q.unsafe(statement);
  if (fillNow || recreated) await fillTables(q, schema);
}

/** The longest one try of {@link lockAgainstWriters} waits in PostgreSQL's lock queue, in milliseconds. */
const LOCK_TRY_MS = 100;

/**
 * Locks a table against writers (`share`) for the rest of a transaction. A writer's open
 * transaction is waited for in tries of {@link LOCK_TRY_MS} (`lock_timeout`): one long wait would
 * leave the connection silent, and the store's pool closes a connection silent past its timeout as
 * lost (internal/availability.ts).
 * @param q - The transaction.
 * @param table - The table, quoted.
 */
async function lockAgainstWriters(q: Sql, table: string): Promise<void> {
  const [{ previous } = { previous: '0' }] = await q<{ previous: string }[]>`select current_setting('lock_timeout') as previous`;
  for (let locked = false; !locked; ) {
    try {
      await (q as unknown as TransactionSql).savepoint(async (sp) => {
        await sp`select set_config('lock_timeout', ${`${LOCK_TRY_MS}ms`}, true)`;
        await sp.unsafe(`lock table ${table} in share mode`);
      });
      locked = true;
    } catch (error) {
      // lock_not_available: the try timed out (and was rolled back); anything else is a failure.
      if ((error as { code?: string }).code !== '55P03') throw error;
    }
  }
  await q`select set_config('lock_timeout', ${previous}, true)`;
}

/**
 * Fills the columns that {@link syncTables} added from the stored records, in a transaction after
 * the one that added them. Adding a column locks its table against readers until its transaction
 * ends: filled in that transaction, 100k anime and manga kept every running instance waiting ~40 s.
 * Here the table is locked only against writers (`share`): instances of the previous version go on
 * reading (they read no new column), a write waits until the fill commits. Instances of this
 * version serve only once their own `migrate()` has returned, which waits for this one (the
 * advisory lock) or fills what is still marked (a fill that failed is rolled back, its marks kept).
 * Also run by {@link syncTables} inside its own transaction when the fill cannot wait.
 * @param q - A transaction holding `migrate()`'s advisory lock.
 * @param schema - The schema (unquoted).
 */
export async function fillTables(q: Sql, schema: string): Promise<void> {
  const s = quoteIdentifier(schema);
  const refills = `${s}.${quoteIdentifier(REFILLS_TABLE)}`;
  const marked = await q.unsafe<{ collection: string }[]>(`select collection from ${refills} order by collection`);
  for (const { collection } of marked) {
    if (isCollectionName(collection)) {
      const table = `${s}.${quoteIdentifier(tableName(collection))}`;
      await lockAgainstWriters(q, table);
      for (let after = 0; ; ) {
        const rows = await q.unsafe<{ seq: string; record: unknown }[]>(`select seq, record from ${table} where seq > $1 order by seq limit ${REFILL_BATCH}`, [
          after,
        ]);
        if (rows.length === 0) break;
        await writeRecords(q, schema, collection, rows.map((r) => r.record), true);
        after = Number(rows.at(-1)!.seq);
      }
    }
    await q.unsafe(`delete from ${refills} where collection = $1`, [collection]);
  }
}

/**
 * The folded, distinct, non-empty search texts of a record (as core's search index folds them).
 * @param collection - A searchable collection.
 * @param record - A record of it.
 */
export function searchTexts(collection: CollectionName, record: unknown): string[] {
  const search = COLLECTIONS[collection].search as ((r: unknown) => readonly string[]) | undefined;
  if (!search) return [];
  return [...new Set(search(record).map(normalizeTitle).filter(Boolean))];
}

/**
 * The one- and two-letter word prefixes of folded texts, as core's search index takes them (code
 * points, not UTF-16 units), sorted: the index of queries too short for trigrams.
 * @param titles - Folded texts.
 */
function toWordPrefixes(titles: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const title of titles) {
    for (const word of title.split(' ')) {
      const [first, second] = word;
      if (first) prefixes.add(first);
      if (first && second) prefixes.add(first + second);
    }
  }
  return [...prefixes].sort();
}

/**
 * Inserts records, or replaces those whose key exists (keeping their `seq`): their field columns,
 * and for a searchable collection their texts and word prefixes. Keys must be distinct. A record
 * whose JSON text is the one stored is left as it is (a write that changes nothing changes
 * nothing, and the change feed sees none), unless `rewrite` asks for its columns again.
 * @param q - A transaction.
 * @param schema - The schema (unquoted).
 * @param collection - The collection.
 * @param records - Valid records with distinct keys.
 * @param rewrite - Write every record, the same or not (a refill of new columns).
 * @returns The keys written.
 */
export async function writeRecords(q: Sql, schema: string, collection: CollectionName, records: readonly unknown[], rewrite = false): Promise<string[]> {
  if (records.length === 0) return [];
  const s = quoteIdentifier(schema);
  const t = tableName(collection);
  const table = `${s}.${quoteIdentifier(t)}`;
  const searchable = isSearchable(collection);
  const columns = ['key', 'record', ...fieldsOf(collection).map(([name]) => name), ...(searchable ? ['_prefixes'] : [])].map(quoteIdentifier);
  const texts: Array<{ key: string; title: string }> = [];
  const rows = records.map((record) => {
    const key = collectionKey(collection, record);
    const row: Record<string, unknown> = { key, record, ...fieldValues(collection, record) };
    if (searchable) {
      const folded = searchTexts(collection, record);
      for (const title of folded) texts.push({ key, title });
      row._prefixes = toWordPrefixes(folded);
    }
    return row;
  });
  const list = columns.join(', ');
  const updates = columns
    .slice(1)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  // One JSON parameter per statement, unpacked by PostgreSQL; a `json` value keeps its text as
  // sent, and `json` has no equality: records are compared as text.
  const unchanged = rewrite ? '' : ' where t.record::text is distinct from excluded.record::text';
  const written = await q.unsafe<{ key: string }[]>(
    `insert into ${table} as t (${list}) select ${list} from json_populate_recordset(null::${table}, $1::text::json) on conflict (key) do update set ${updates}${unchanged} returning t.key`,
    [JSON.stringify(rows)],
  );
  const keys = written.map((r) => r.key);
  if (!searchable || keys.length === 0) return keys;
  const textTable = `${s}.${quoteIdentifier(`${t}_texts`)}`;
  const wrote = new Set(keys);
  const kept = keys.length === rows.length ? texts : texts.filter((x) => wrote.has(x.key));
  await q.unsafe(`delete from ${textTable} where key = any($1::text[])`, [keys]);
  if (kept.length > 0) {
    await q.unsafe(`insert into ${textTable} (key, title) select key, title from json_populate_recordset(null::${textTable}, $1::text::json)`, [
      JSON.stringify(kept),
    ]);
    await fileWords(q, `${s}.${quoteIdentifier(`${t}_edits`)}`, editWords(kept.map((x) => x.title)));
  }
  return keys;
}

/**
 * Files the words not filed yet under their one-edit keys (core's `wordEditKeys`). Rows go in
 * sorted, so that two writers filing the same words take their locks in the same order.
 * @param q - A transaction.
 * @param edits - The `<table>_edits` table (quoted).
 * @param words - The words of the texts written.
 */
async function fileWords(q: Sql, edits: string, words: readonly string[]): Promise<void> {
  if (words.length === 0) return;
  const fresh = await q.unsafe<{ word: string }[]>(`select w as word from unnest($1::text[]) w where not exists (select 1 from ${edits} e where e.edit = '=' || w)`, [
    words as string[],
  ]);
  if (fresh.length === 0) return;
  const rows = fresh.flatMap(({ word }) => wordEditKeys(word).map((edit) => ({ edit, word })));
  rows.sort((a, b) => (a.edit < b.edit ? -1 : a.edit > b.edit ? 1 : a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  await q.unsafe(`insert into ${edits} (edit, word) select edit, word from json_populate_recordset(null::${edits}, $1::text::json) on conflict do nothing`, [
    JSON.stringify(rows),
  ]);
}
