/**
 * No empty answer for a one-letter slip, on the memory store: every one-edit query made from a real
 * title or name of the demo data (`one-edit-cases.ts`) finds something. The PostgreSQL store runs
 * the same cases (`store-postgres`'s one-edit-search test).
 * @module
 */
import { describe, expect, it } from 'vitest';
import { demoData } from '@catalogue-api/demo-data';
import { createMemoryStore } from '../src/index.js';
import { emptyAnswers, oneEditCases, SEARCHED } from './one-edit-cases.js';

const cases = oneEditCases();
const store = createMemoryStore(demoData);

describe('one-edit search (memory store)', () => {
  it.each(SEARCHED)('answers every one-edit %s query with something', async (collection) => {
    const mine = cases.filter((c) => c.collection === collection);
    expect(mine.length).toBeGreaterThan(40);
    const { empty, found } = await emptyAnswers(store, mine);
    console.info(`${collection}: ${mine.length} one-edit queries, ${empty.length} empty, ${found} find their record in the top 10`);
    expect(empty).toEqual([]);
  });
});
