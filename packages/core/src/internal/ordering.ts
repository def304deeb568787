/**
 * Orderings over one key: nulls last in both directions, ties by `mal_id` ascending (so pages never
 * repeat or skip a record).
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
