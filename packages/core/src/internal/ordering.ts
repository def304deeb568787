/**
 * Orderings shared by every list of the memory store: nulls last in both directions, ties by
 * `mal_id` ascending (so pages never repeat or skip a record), and each ordering of a whole
 * collection computed once and kept, so a request filters a presorted list instead of sorting.
 * @module
 */

/** A sortable value; `null` sorts last in either direction. */
export type SortKey = string | number | null;

/**
 * A comparator over one key.
 * @param key - Reads the key of a record.
 * @param id - Reads the tie-breaking id.
 * @param sort - Direction of the key (ties are always ascending by id).
 */
export function compareBy<T>(key: (e: T) => SortKey, id: (e: T) => number, sort: 'asc' | 'desc'): (a: T, b: T) => number {
  const dir = sort === 'desc' ? -1 : 1;
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * dir;
    }
    return id(a) - id(b);
  };
}

/**
 * Lazily computed, cached orderings of a fixed collection.
 * @param items - The collection (not copied; must not change).
 * @param id - Reads the tie-breaking id.
 * @param keys - The named keys.
 * @returns A function giving the collection ordered by a key and direction.
 */
export function createOrderings<T, K extends string>(
  items: readonly T[],
  id: (e: T) => number,
  keys: Record<K, (e: T) => SortKey>,
): (key: K, sort: 'asc' | 'desc') => readonly T[] {
  const cache = new Map<string, readonly T[]>();
  return (key, sort) => {
    const name = `${key}:${sort}`;
    let ordered = cache.get(name);
    if (!ordered) {
      ordered = [...items].sort(compareBy(keys[key], id, sort));
      cache.set(name, ordered);
    }
    return ordered;
  };
}

/**
 * Groups records by a key, keeping their order.
 * @param items - The records.
 * @param key - Reads the group key.
 */
export function groupBy<T, K>(items: readonly T[], key: (e: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
