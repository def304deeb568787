/**
 * Writing anime and manga into the tables of schema versions 1 to 5 (`<kind>` typed columns,
 * `<kind>_records` the records, `<kind>_titles` folded titles). The store no longer uses them; the
 * migrations that fill them do (migration 4 moves manga there from `documents`), so that a schema
 * of any earlier version upgrades through every step.
 * @module
 */
import type { Sql } from 'postgres';
import type { Anime, Manga } from '@catalogue-api/core/schemas';
import { ANIME_COLUMNS, MANGA_COLUMNS, toAnimeRow, toMangaRow, toMediaTitles } from './media-rows.js';

/** What differs between the tables of two media kinds. */
export interface MediaKind<T extends Anime | Manga> {
  /** The table name prefix: `anime`, `manga`. */
  name: 'anime' | 'manga';
  /** The typed columns, in table order. */
  columns: readonly string[];
  /** A record's typed columns. */
  toRow(record: T): object;
}

/** Anime. */
export const ANIME: MediaKind<Anime> = { name: 'anime', columns: ANIME_COLUMNS, toRow: toAnimeRow };

/** Manga. */
export const MANGA: MediaKind<Manga> = { name: 'manga', columns: MANGA_COLUMNS, toRow: toMangaRow };

/** The version 1–5 tables of one media kind. */
export interface MediaTables<T> {
  /** Inserts or replaces records (unique by `mal_id`) with their typed columns and titles. */
  upsert(q: Sql, records: readonly T[]): Promise<void>;
}

/**
 * The upsert of a media kind into its version 1–5 tables in a schema.
 * @param sql - The client.
 * @param schema - The schema (unquoted).
 * @param kind - {@link ANIME} or {@link MANGA}.
 */
export function mediaTables<T extends Anime | Manga>(sql: Sql, schema: string, kind: MediaKind<T>): MediaTables<T> {
  const table = (suffix: string) => sql(`${schema}.${kind.name}${suffix}`);
  const entries = table('');
  const records = table('_records');
  const titles = table('_titles');
  const updates = kind.columns
    .filter((c) => c !== 'mal_id')
    .map((c) => sql`${sql(c)} = excluded.${sql(c)}`)
    .reduce((acc, part) => sql`${acc}, ${part}`);

  async function upsert(q: Sql, list: readonly T[]): Promise<void> {
    if (list.length === 0) return;
    // One JSON parameter per statement: PostgreSQL unpacks it, the record text is kept as sent.
    await q`
      insert into ${entries} (${sql(kind.columns as string[])})
      select ${sql(kind.columns as string[])} from json_populate_recordset(null::${entries}, ${JSON.stringify(list.map(kind.toRow))}::text::json)
      on conflict (mal_id) do update set ${updates}, updated_at = now()`;
    await q`
      insert into ${records} (mal_id, record)
      select (e ->> 'mal_id')::int, e from json_array_elements(${JSON.stringify(list)}::text::json) e
      on conflict (mal_id) do update set record = excluded.record`;
    const ids = list.map((r) => r.mal_id);
    await q`delete from ${titles} where mal_id = any(${ids}::int[])`;
    const rows = list.flatMap((r) => toMediaTitles(r).map((title) => ({ mal_id: r.mal_id, title })));
    await q`insert into ${titles} select * from json_populate_recordset(null::${titles}, ${JSON.stringify(rows)}::text::json)`;
  }

  return { upsert };
}
