/**
 * A `RecordQuery`'s conditions and ordering as SQL over a collection's table (alias `t`), with the
 * meaning core's `seam/evaluate.ts` gives them, including for `null` (a comparison, `in`, `prefix`
 * or array test never holds for it; `ne` and `notIn` do) and for a value of another type than the
 * field's (never equal, as JavaScript's `===`). Values always travel as parameters, so that a
 * statement's text depends on the query's shape only.
 * @module
 */
import { COLLECTIONS, type CollectionName, type Condition, type FieldType, type OrderKey } from '@catalogue-api/core/store';
import { isArrayType, quoteIdentifier } from './tables.js';

/** The parameters of one statement, as `$1`, `$2`… */
export class Params {
  /** The values, in placeholder order. */
  readonly values: unknown[] = [];

  /**
   * Adds a value.
   * @param value - The value.
   * @param cast - Its SQL type.
   * @returns Its placeholder, cast.
   */
  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

const INT4_MIN = -2_147_483_648;
const INT4_MAX = 2_147_483_647;
const isInt4 = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= INT4_MIN && v <= INT4_MAX;

/** The type of a declared field; an undeclared field is an error of the caller. */
export function fieldType(collection: CollectionName, field: string): FieldType {
  const spec = (COLLECTIONS[collection].fields as Record<string, { type: FieldType } | undefined>)[field];
  if (!spec || !Object.hasOwn(COLLECTIONS[collection].fields, field)) throw new TypeError(`${collection} has no field "${field}"`);
  return spec.type;
}

/** Whether a value can equal a value of a field type (as `===` would find). */
function comparable(type: FieldType, value: unknown): boolean {
  switch (type) {
    case 'int':
    case 'ints':
      return isInt4(value);
    case 'float':
      return typeof value === 'number';
    case 'text':
    case 'texts':
      return typeof value === 'string';
    case 'bool':
      return typeof value === 'boolean';
  }
}

/** A parameter compared with a scalar column of a type: integers as `integer`, other numbers as `double precision`. */
function scalar(p: Params, type: FieldType, value: number | string | boolean): string {
  if (type === 'text') return `(${p.add(value, 'text')} collate "C")`;
  if (type === 'bool') return p.add(value, 'boolean');
  return isInt4(value) ? p.add(value, 'integer') : p.add(value, 'double precision');
}

/** An array parameter of the values that can be elements of a field type's column. */
function list(p: Params, type: FieldType, values: readonly unknown[]): string | undefined {
  const kept = [...new Set(values.filter((v) => comparable(type, v)))];
  if (kept.length === 0) return undefined;
  const element = { int: 'integer', ints: 'integer', float: 'double precision', text: 'text', texts: 'text', bool: 'boolean' }[type];
  return p.add(kept, `${element}[]`);
}

/**
 * One condition as an SQL boolean expression.
 * @param collection - The collection.
 * @param c - The condition.
 * @param p - The statement's parameters.
 * @throws TypeError for an undeclared field, or an order comparison of a number field with a
 * string (or the reverse), which JavaScript would answer by coercion.
 */
export function conditionSql(collection: CollectionName, c: Condition, p: Params): string {
  if (c.op === 'any') {
    if (c.of.length === 0) return 'false';
    return `(${c.of.map((all) => (all.length === 0 ? 'true' : `(${all.map((x) => conditionSql(collection, x, p)).join(' and ')})`)).join(' or ')})`;
  }
  const type = fieldType(collection, c.field);
  const column = `t.${quoteIdentifier(c.field)}`;
  const array = isArrayType(type);
  switch (c.op) {
    case 'eq':
      return !array && comparable(type, c.value) ? `${column} = ${scalar(p, type, c.value)}` : 'false';
    case 'ne':
      return !array && comparable(type, c.value) ? `${column} is distinct from ${scalar(p, type, c.value)}` : 'true';
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      if (array || type === 'bool') return 'false';
      if ((type === 'text') !== (typeof c.value === 'string')) throw new TypeError(`${c.op} on ${collection}.${c.field} (${type}) takes a ${type === 'text' ? 'string' : 'number'}`);
      const op = { lt: '<', lte: '<=', gt: '>', gte: '>=' }[c.op];
      return `${column} ${op} ${scalar(p, type, c.value)}`;
    }
    // core never finds a boolean in a list of values.
    case 'in': {
      const values = array || type === 'bool' ? undefined : list(p, type, c.values);
      return values ? `${column} = any(${values})` : 'false';
    }
    case 'notIn': {
      const values = array || type === 'bool' ? undefined : list(p, type, c.values);
      return values ? `(${column} is null or ${column} <> all(${values}))` : 'true';
    }
    case 'prefix':
      return type === 'text' ? `starts_with(${column}, ${p.add(c.value, 'text')})` : 'false';
    case 'null':
      return array ? 'false' : `${column} is null`;
    case 'notNull':
      return array ? 'true' : `${column} is not null`;
    case 'has': {
      if (!array || !comparable(type, c.value)) return 'false';
      return `${column} @> ${list(p, type, [c.value])!}`;
    }
    case 'hasAll': {
      if (c.values.length === 0) return 'true';
      if (!array || !c.values.every((v) => comparable(type, v))) return 'false';
      return `${column} @> ${list(p, type, c.values)!}`;
    }
    case 'hasAny': {
      const values = array ? list(p, type, c.values) : undefined;
      return values ? `${column} && ${values}` : 'false';
    }
    case 'hasNone': {
      const values = array ? list(p, type, c.values) : undefined;
      return values ? `not (${column} && ${values})` : 'true';
    }
  }
}

/**
 * Conditions as an SQL boolean expression (all must hold).
 * @param collection - The collection.
 * @param where - The conditions; none: `true`.
 * @param p - The statement's parameters.
 */
export function whereSql(collection: CollectionName, where: readonly Condition[] | undefined, p: Params): string {
  if (!where || where.length === 0) return 'true';
  return where.map((c) => conditionSql(collection, c, p)).join(' and ');
}

/**
 * An ordering as SQL sort keys (without the final tie-break): nulls last both ways. Array fields
 * sort as `null` in core (all equal) and are left out.
 * @param collection - The collection.
 * @param orderBy - The ordering.
 * @returns The keys, comma-separated, each followed by a comma; empty for none.
 */
export function orderSql(collection: CollectionName, orderBy: readonly OrderKey[] | undefined): string {
  let out = '';
  for (const { field, dir } of orderBy ?? []) {
    if (isArrayType(fieldType(collection, field))) continue;
    out += `t.${quoteIdentifier(field)} ${dir === 'desc' ? 'desc' : 'asc'} nulls last, `;
  }
  return out;
}
