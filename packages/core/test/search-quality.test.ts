/**
 * Search quality on the demo dataset (issue 2): for every demo title that names one entry only, the
 * exact title, an English title, a synonym and a one-letter typo each find that entry at rank 1,
 * through the memory store's ranking (tiers, fuse score, popularity). Recall@1 per kind is printed.
 * The same kinds, at 30k-anime scale, are measured by `npm run bench` (`bench/search.ts`).
 * @module
 */
import { afterAll, describe, expect, it } from 'vitest';
import { demoData } from '@catalogue-api/demo-data';
import { createMemoryStore, type AnimeSearch } from '../src/index.js';
import { normalizeTitle } from '../src/search.js';

type Kind = 'exact' | 'english' | 'synonym' | 'typo';

const anime = demoData.anime;
const store = createMemoryStore(demoData);
const search = (q: string): AnimeSearch => ({ q, page: 1, limit: 10, sfw: 'off', approval: 'all', sort: 'asc' });

// How many entries carry each normalized title: a title shared by two entries names neither.
const owners = new Map<string, Set<number>>();
for (const a of anime) {
  for (const t of [a.title, a.title_english, a.title_japanese, ...a.title_synonyms, ...a.titles.map((x) => x.title)]) {
    if (!t) continue;
    const key = normalizeTitle(t);
    const set = owners.get(key) ?? new Set<number>();
    set.add(a.mal_id);
    owners.set(key, set);
  }
}
const unique = (t: string | null | undefined): t is string => !!t && normalizeTitle(t).length > 0 && owners.get(normalizeTitle(t))?.size === 1;

// A one-letter typo: the letter in the middle of the longest word becomes its keyboard neighbour.
const NEIGHBOUR: Record<string, string> = {
  a: 's', b: 'n', c: 'v', d: 'f', e: 'r', f: 'g', g: 'h', h: 'j', i: 'o', j: 'k', k: 'l', l: 'k', m: 'n',
  n: 'm', o: 'p', p: 'o', q: 'w', r: 't', s: 'd', t: 'y', u: 'i', v: 'b', w: 'e', x: 'c', y: 'u', z: 'x',
};
function typo(title: string): string | undefined {
  const text = normalizeTitle(title);
  const words = text.split(' ');
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a), '');
  if (!/^[a-z]{5,}$/.test(longest)) return undefined;
  const at = text.indexOf(longest) + Math.floor(longest.length / 2);
  const changed = text.slice(0, at) + NEIGHBOUR[text[at]!]! + text.slice(at + 1);
  return owners.has(changed) ? undefined : changed;
}

const cases: { kind: Kind; q: string; id: number }[] = [];
for (const a of anime) {
  if (unique(a.title)) cases.push({ kind: 'exact', q: a.title, id: a.mal_id });
  if (a.title_english !== a.title && unique(a.title_english)) cases.push({ kind: 'english', q: a.title_english, id: a.mal_id });
  const synonym = a.title_synonyms.find(unique);
  if (synonym) cases.push({ kind: 'synonym', q: synonym, id: a.mal_id });
  const mistyped = unique(a.title) && normalizeTitle(a.title).length >= 8 ? typo(a.title) : undefined;
  if (mistyped) cases.push({ kind: 'typo', q: mistyped, id: a.mal_id });
}

const recall: Record<Kind, { n: number; hit1: number; misses: string[] }> = {
  exact: { n: 0, hit1: 0, misses: [] },
  english: { n: 0, hit1: 0, misses: [] },
  synonym: { n: 0, hit1: 0, misses: [] },
  typo: { n: 0, hit1: 0, misses: [] },
};

describe('search quality on the demo dataset', () => {
  it.each(['exact', 'english', 'synonym', 'typo'] as const)('has at least 100 %s queries', (kind) => {
    expect(cases.filter((c) => c.kind === kind).length).toBeGreaterThanOrEqual(100);
  });

  it.each(cases.map((c) => [c.kind, c.q, c.id] as const))('%s %j finds %i at rank 1', async (kind, q, id) => {
    const { data } = await store.searchAnime(search(q));
    const r = recall[kind];
    r.n++;
    if (data[0]?.mal_id === id) r.hit1++;
    else r.misses.push(`${q} → ${data[0]?.title ?? 'nothing'}`);
    expect(data[0]?.mal_id).toBe(id);
  });

  afterAll(() => {
    const line = Object.entries(recall)
      .map(([kind, r]) => `${kind} ${r.hit1}/${r.n} (${((100 * r.hit1) / Math.max(1, r.n)).toFixed(1)} %)`)
      .join(', ');
    console.info(`search quality, recall@1 on the demo dataset: ${line}`);
  });
});
