/**
 * The meaning of a `RecordQuery`'s conditions and ordering, as plain functions over a record's
 * field values (`fieldValues`). The memory store runs them; a store over another back end must
 * answer as they do (its SQL, for PostgreSQL), which the store contract suite checks. A store in
 * JavaScript may simply use them.
 * @module
 */
import type { Condition, FieldValue, OrderKey } from './types.js';

/** A record's field values, by field name. */
export type Fields = Readonly<Record<string, FieldValue | readonly (number | string)[]>>;

type Value = Fields[string] | undefined;
const scalar = (v: Value): FieldValue => (Array.isArray(v) || v === undefined ? null : (v as FieldValue));
const array = (v: Value): readonly (number | string)[] => (Array.isArray(v) ? v : []);

/**
 * Whether one condition holds for a record.
 * @param f - The record's field values.
 * @param c - The condition.
 */
export function holds(f: Fields, c: Condition): boolean {
  if (c.op === 'any') return c.of.some((all) => all.every((x) => holds(f, x)));
  const v = f[c.field];
  switch (c.op) {
    case 'eq':
      return scalar(v) === c.value;
    case 'ne':
      return scalar(v) !== c.value;
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const x = scalar(v);
      if (x === null || typeof x === 'boolean') return false;
      if (c.op === 'lt') return x < c.value;
      if (c.op === 'lte') return x <= c.value;
      return c.op === 'gt' ? x > c.value : x >= c.value;
    }
    case 'in': {
      const x = scalar(v);
      return x !== null && typeof x !== 'boolean' && c.values.includes(x);
    }
    case 'notIn': {
      const x = scalar(v);
      return x === null || typeof x === 'boolean' || !c.values.includes(x);
    }
    case 'prefix': {
      const x = scalar(v);
      return typeof x === 'string' && x.startsWith(c.value);
    }
    case 'null':
      return scalar(v) === null && !Array.isArray(v);
    case 'notNull':
      return scalar(v) !== null || Array.isArray(v);
    case 'has':
      return array(v).includes(c.value);
    case 'hasAll':
      return c.values.every((x) => array(v).includes(x));
    case 'hasAny':
      return c.values.some((x) => array(v).includes(x));
    case 'hasNone':
      return !c.values.some((x) => array(v).includes(x));
  }
}

/**
 * Whether every condition holds for a record.
 * @param f - The record's field values.
 * @param where - The conditions (none: true).
 */
export function holdsAll(f: Fields, where: readonly Condition[] | undefined): boolean {
  if (!where) return true;
  for (const c of where) if (!holds(f, c)) return false;
  return true;
}

/**
 * A comparator of records' field values by an ordering: key after key, `null` last in either
 * direction; equal on every key is 0 (the caller keeps its stored order: sort is stable).
 * @param orderBy - The ordering.
 * @returns A comparator.
 * @example
 * ```ts
 * entries.sort(compareFields([{ field: 'score', dir: 'desc' }, { field: 'mal_id', dir: 'asc' }]));
 * ```
 */
export function compareFields(orderBy: readonly OrderKey[]): (a: Fields, b: Fields) => number {
  return (a, b) => {
    for (const { field, dir } of orderBy) {
      const x = scalar(a[field]);
      const y = scalar(b[field]);
      if (x === y) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * (dir === 'desc' ? -1 : 1);
    }
    return 0;
  };
}
