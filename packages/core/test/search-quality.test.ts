/**
 * Search quality on the demo dataset (issues 2 and 7): for every demo title that names one entry
 * only, the exact title, an English title, a synonym, a one-letter typo and a romaji spelling variant
 * (long vowels written short) each find that entry at rank 1, and a partial title (its first word or
 * two, the last one cut short) finds it in the top 10, as `GET /v1/anime?q=` answers over the
 * memory store (its ranking: tiers, words held and word similarity, popularity). Recall per kind is printed. The same kinds, at 30k-anime scale, are
 * measured by `npm run bench` (`bench/search.ts`).
 * @module
 */
import { afterAll, describe, expect, it } from 'vitest';
import { demoData } from '@catalogue-api/demo-data';
import { createMemoryStore } from '../src/index.js';
import type { Anime } from '../src/schemas/anime.js';
import type { Manga } from '../src/schemas/manga.js';
import { normalizeTitle } from '../src/seam/search.js';
import { answersOf } from '../../testkit/src/answers.js';

type Kind = 'exact' | 'english' | 'synonym' | 'typo' | 'romaji' | 'partial';
/** Partial titles name a franchise, not an entry: the entry must be among the first ten. */
const RANK: Record<Kind, number> = { exact: 1, english: 1, synonym: 1, typo: 1, romaji: 1, partial: 10 };

const anime = demoData.anime;
const get = answersOf(createMemoryStore(demoData));
/** The first ten hits of `GET /v1/{kind}?q=`, unapproved entries included. */
const search = async <T>(kind: 'anime' | 'manga', q: string) => (await get<T[]>(`/v1/${kind}?q=${encodeURIComponent(q)}&limit=10&unapproved`))!.data;

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

// Romaji spelt with long vowels short, as people type it: "kyou" → "kyo", "shippuuden" → "shippuden".
function romaji(title: string): string | undefined {
  const text = normalizeTitle(title);
  const short = text.replace(/ou/g, 'o').replace(/uu/g, 'u').replace(/oo/g, 'o').replace(/ii/g, 'i');
  return short !== text && short.length >= 6 && !owners.has(short) ? short : undefined;
}

// The first word (or two) of a title, the last one cut to 70 %: "fullmeta", "mushoku tens".
function partial(title: string): string | undefined {
  const words = normalizeTitle(title).split(' ');
  if (!/^[a-z]{4,}$/.test(words[0]!)) return undefined;
  const n = words.length > 1 && /^[a-z]{4,}$/.test(words[1]!) ? 2 : 1;
  const last = words[n - 1]!;
  return [...words.slice(0, n - 1), last.slice(0, Math.max(3, Math.ceil(last.length * 0.7)))].join(' ');
}

const cases: { kind: Kind; q: string; id: number }[] = [];
for (const a of anime) {
  if (unique(a.title)) cases.push({ kind: 'exact', q: a.title, id: a.mal_id });
  if (a.title_english !== a.title && unique(a.title_english)) cases.push({ kind: 'english', q: a.title_english, id: a.mal_id });
  const synonym = a.title_synonyms.find(unique);
  if (synonym) cases.push({ kind: 'synonym', q: synonym, id: a.mal_id });
  const mistyped = unique(a.title) && normalizeTitle(a.title).length >= 8 ? typo(a.title) : undefined;
  if (mistyped) cases.push({ kind: 'typo', q: mistyped, id: a.mal_id });
  const variant = unique(a.title) ? romaji(a.title) : undefined;
  if (variant) cases.push({ kind: 'romaji', q: variant, id: a.mal_id });
  const start = unique(a.title) ? partial(a.title) : undefined;
  if (start) cases.push({ kind: 'partial', q: start, id: a.mal_id });
}

const recall: Record<Kind, { n: number; hit: number; misses: string[] }> = {
  exact: { n: 0, hit: 0, misses: [] },
  english: { n: 0, hit: 0, misses: [] },
  synonym: { n: 0, hit: 0, misses: [] },
  typo: { n: 0, hit: 0, misses: [] },
  romaji: { n: 0, hit: 0, misses: [] },
  partial: { n: 0, hit: 0, misses: [] },
};

describe('search quality on the demo dataset', () => {
  it.each(['exact', 'english', 'synonym', 'typo', 'romaji', 'partial'] as const)('has at least 100 %s queries', (kind) => {
    expect(cases.filter((c) => c.kind === kind).length).toBeGreaterThanOrEqual(100);
  });

  it.each(cases.map((c) => [c.kind, c.q, c.id, RANK[c.kind]] as const))('%s %j finds %i within rank %i', async (kind, q, id, rank) => {
    const data = await search<Anime>('anime', q);
    const r = recall[kind];
    r.n++;
    const at = data.findIndex((a) => a.mal_id === id);
    if (at >= 0 && at < rank) r.hit++;
    else r.misses.push(`${q} → ${data[0]?.title ?? 'nothing'}`);
    expect(at, `${q}: ${data.map((a) => a.title).join(' | ')}`).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(rank);
  });

  afterAll(() => {
    const line = Object.entries(recall)
      .map(([kind, r]) => `${kind} ${r.hit}/${r.n} (${((100 * r.hit) / Math.max(1, r.n)).toFixed(1)} %)`)
      .join(', ');
    console.info(`search quality on the demo dataset (recall@1; partial: recall@10): ${line}`);
  });
});

// Manga are searched by the same titles as anime: every demo manga is the top hit for its default
// and English titles (where no other manga bears them).
const mangaOwners = new Map<string, Set<number>>();
for (const m of demoData.manga ?? []) {
  for (const t of [m.title, m.title_english, m.title_japanese, ...m.title_synonyms, ...m.titles.map((x) => x.title)]) {
    if (!t || !normalizeTitle(t)) continue;
    const set = mangaOwners.get(normalizeTitle(t)) ?? new Set<number>();
    set.add(m.mal_id);
    mangaOwners.set(normalizeTitle(t), set);
  }
}
const mangaCases = (demoData.manga ?? []).flatMap((m) =>
  [m.title, m.title_english].filter((t, i, all): t is string => !!t && all.indexOf(t) === i && mangaOwners.get(normalizeTitle(t))?.size === 1).map((q) => [q, m.mal_id] as const),
);

describe('manga search quality on the demo dataset', () => {
  it.each(mangaCases)('%j finds manga %i first', async (q, id) => {
    const data = await search<Manga>('manga', q);
    expect(data[0]?.mal_id, `${q}: ${data.map((m) => m.title).join(' | ')}`).toBe(id);
  });
});
