#!/usr/bin/env node
/**
 * Derives the compact real-title list `scripts/bench-data/titles.tsv.gz` from the source
 * data files in the folder `SHARED_DATA` names (their public origins: `packages/demo-data/NOTICE.md`). Run it only when the source files change;
 * its output is committed so that `build.mjs` needs nothing outside the repository.
 *
 * Output: one anime per line, `mal_id<TAB>title<TAB>title_english<TAB>title_japanese<TAB>synonyms`,
 * synonyms joined by ` | `, empty fields for missing values, sorted by mal_id. Titles and ids only —
 * no synopses or other prose (MAL facts via Jikan; tests and benchmarks only, never shipped).
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { parseCsv } from '../lib/csv.mjs';
import { readSourceJson, readSourceText } from '../lib/source-files.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

const clean = (s) => (s ?? '').replace(/[\t\r\n|]+/g, ' ').replace(/\s+/g, ' ').trim();
const known = (s) => (s && s !== 'UNKNOWN' ? clean(s) : '');

/** id → { title, english, japanese, synonyms:Set } */
const byId = new Map();
const entry = (id) => {
  let e = byId.get(id);
  if (!e) byId.set(id, (e = { title: '', english: '', japanese: '', synonyms: new Set() }));
  return e;
};

// anime-2023.slim.csv.gz: every id and its default title.
const [slimHead, ...slim] = parseCsv(readSourceText('anime-2023.slim.csv.gz'));
const sId = slimHead.indexOf('anime_id');
const sName = slimHead.indexOf('Name');
for (const row of slim) {
  if (!row[sId]) continue;
  entry(Number(row[sId])).title = clean(row[sName]);
}

// anime-2023.full-ids-1-2000.csv.gz: English and Japanese titles.
const [fullHead, ...full] = parseCsv(readSourceText('anime-2023.full-ids-1-2000.csv.gz'));
const f = (name) => fullHead.indexOf(name);
for (const row of full) {
  if (!row[f('anime_id')]) continue;
  const e = entry(Number(row[f('anime_id')]));
  e.title ||= clean(row[f('Name')]);
  e.english ||= known(row[f('English name')]);
  e.japanese ||= known(row[f('Other name')]);
}

// anime-tv-2006-2027.ate329.json.gz (TV 2006–2027): English, Japanese and synonyms.
for (const a of readSourceJson('anime-tv-2006-2027.ate329.json.gz')) {
  const e = entry(a.mal_id);
  e.title ||= clean(a.title);
  e.english ||= known(a.title_english);
  e.japanese ||= known(a.title_japanese);
  for (const s of a.title_synonyms ?? []) if (clean(s)) e.synonyms.add(clean(s));
}

const lines = [...byId]
  .filter(([, e]) => e.title)
  .sort(([a], [b]) => a - b)
  .map(([id, e]) => {
    const english = e.english;
    const synonyms = [...e.synonyms].filter((s) => s !== e.title && s !== english);
    return [id, e.title, english, e.japanese, synonyms.join(' | ')].join('\t');
  });
const out = path.join(here, 'titles.tsv.gz');
fs.writeFileSync(out, zlib.gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
console.log(`wrote ${path.relative(repoRoot, out)}: ${lines.length} anime, ${fs.statSync(out).size} bytes`);
