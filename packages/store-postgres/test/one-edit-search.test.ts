/**
 * No empty answer for a one-letter slip, on the PostgreSQL store: the memory store's one-edit cases
 * (`packages/core/test/one-edit-cases.ts`, real titles and names of the demo data with one letter
 * inserted, dropped, changed or swapped) each find something. Needs `DATABASE_URL`; the run uses
 * its own schema and drops it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '@catalogue-api/demo-data';
import { emptyAnswers, oneEditCases, SEARCHED } from '../../core/test/one-edit-cases.js';
import type { PostgresStore } from '../src/catalogue-store.js';
import { suiteDatabase } from './suite-database.js';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('PostgreSQL one-edit search', () => {
  const { fresh } = suiteDatabase('pgseam_one_edit', 2);
  const cases = oneEditCases();
  let store: PostgresStore;

  beforeAll(async () => {
    store = await fresh();
    await store.seed({ anime: demoData.anime, manga: demoData.manga, characters: demoData.characters, people: demoData.people });
  }, 120_000);

  it.each(SEARCHED)('answers every one-edit %s query with something', async (collection) => {
    const mine = cases.filter((c) => c.collection === collection);
    expect(mine.length).toBeGreaterThan(40);
    const { empty, found } = await emptyAnswers(store, mine);
    console.info(`${collection}: ${mine.length} one-edit queries, ${empty.length} empty, ${found} find their record in the top 10`);
    expect(empty).toEqual([]);
  }, 120_000);
});
