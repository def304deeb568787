/**
 * The refresher's tables, as an ordered list of migrations with a ledger of their own
 * (`refresh_migrations`), beside the catalogue's in the same schema: the catalogue's versions
 * (`migrations.ts`) and the refresher's move independently, so neither renumbers the other. Each
 * runs once per schema; never edit a released one, append a new one.
 *
 * Instants are `bigint` milliseconds since the epoch, exactly as the refresher's clock gives them
 * (`timestamptz` keeps microseconds and would round-trip through `Date`).
 * @module
 */
import type { Sql } from 'postgres';
import { runMigrations } from './client.js';

/** The tiers in priority order; a task's `priority` is its index here (`upstream/types.ts`, `TierName`). */
export const TIER_ORDER = ['new', 'hot', 'stats', 'popular', 'full'] as const;

const MIGRATIONS: ReadonlyArray<(s: string) => string> = [
  // 1. The lease (one refresher at a time), the tasks (what is due when, failures, validators),
  // the budget's ledger (every request slot taken in the last minute or two, and the pause of a
  // Retry-After) and named cursors.
  (s) => `
    create table ${s}.refresh_lease (
      name text primary key,
      holder text not null,
      expires_at bigint not null
    );
    create table ${s}.refresh_tasks (
      key text primary key,
      tier text not null check (tier in (${TIER_ORDER.map((t) => `'${t}'`).join(', ')})),
      priority smallint not null check (priority between 0 and ${TIER_ORDER.length - 1}),
      due_at bigint not null,
      kind text not null,
      entry_id integer,
      part text,
      list text,
      page integer,
      failures integer not null default 0 check (failures >= 0),
      not_found_at bigint,
      validator text
    );
    create index refresh_tasks_due on ${s}.refresh_tasks (priority, due_at);
    create table ${s}.refresh_requests (
      id bigserial primary key,
      at bigint not null
    );
    create index refresh_requests_at on ${s}.refresh_requests (at);
    create table ${s}.refresh_pause (
      id boolean primary key default true check (id),
      until bigint not null
    );
    create table ${s}.refresh_cursors (
      name text primary key,
      value text not null
    );`,
];

/**
 * Creates or upgrades the refresher's tables in a schema. Idempotent, and safe from several
 * processes at once (`client.ts`, `runMigrations`).
 * @param sql - A `postgres` client.
 * @param schema - The schema name (unquoted); created when missing.
 * @returns The version now in place.
 */
export function migrateRefreshSchema(sql: Sql, schema: string): Promise<number> {
  return runMigrations(sql, schema, 'refresh', MIGRATIONS);
}
