import { describe, expect, it } from 'vitest';
import { demoData } from '@catalogue-api/demo-data';
import { createRecordStore } from './record-store.js';
import { loadCatalogue } from './load.js';

describe('the record store', () => {
  it('loads a dataset and answers by key, owner and order', async () => {
    const store = await loadCatalogue(createRecordStore(), demoData);
    const first = demoData.anime![0]!;
    expect(await store.get('anime', first.mal_id)).toBe(first);
    const cast = await store.query('animeCharacters', { where: [{ field: 'owners', op: 'has', value: `anime:${first.mal_id}` }], offset: 0, limit: 1000 });
    expect(cast.total).toBe(demoData.animeCharacters!.filter((r) => r.anime_id === first.mal_id).length);
    const top = await store.query('anime', { where: [{ field: 'rank', op: 'notNull' }], orderBy: [{ field: 'rank', dir: 'asc' }, { field: 'mal_id', dir: 'asc' }], offset: 0, limit: 3 });
    expect(top.data.map((a) => a.rank)).toEqual([1, 2, 3]);
    const hits = await store.query('anime', { search: first.title, offset: 0, limit: 1 });
    expect(hits.data[0]?.mal_id).toBe(first.mal_id);
  });
});
