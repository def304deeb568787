#!/usr/bin/env node
/**
 * Builds the full-scale benchmark dataset into `bench/.data/` (gitignored): ≈30k anime, 70k manga,
 * 100k characters and 30k people, as JSON arrays of Jikan v4-shaped records, plus `manifest.json`.
 *
 * - Anime titles and ids are REAL (MyAnimeList via Jikan, from the committed `titles.tsv.gz`, see
 *   `extract-titles.mjs`); every other anime field, and the anime topping the set up to 30k, are GENERATED.
 * - Manga, characters and people are entirely GENERATED (names from syllables, prose from a word list).
 * - Deterministic: one seeded PRNG (mulberry32, `BENCH_SEED`, default 20261121); no clock, no Math.random.
 * - Every record is validated against the zod schemas of `packages/core/src/schemas` before writing.
 *
 * Usage: `npm run build:bench-data` (or `node scripts/bench-data/build.mjs`). Node builtins + tsx only.
 * Env: `BENCH_DATA_DIR` (output, default `bench/.data`), `BENCH_SEED`, `BENCH_SCALE` (0–1, scales every count).
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { assignMediaRanks, checkMediaRanks } from '../lib/media-ranks.mjs';
import { mulberry32 } from '../lib/mulberry32.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const outDir = path.resolve(repoRoot, process.env.BENCH_DATA_DIR ?? 'bench/.data');
const SEED = Number(process.env.BENCH_SEED ?? 20261121);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const COUNTS = {
  anime: Math.round(30_000 * SCALE),
  manga: Math.round(70_000 * SCALE),
  characters: Math.round(100_000 * SCALE),
  people: Math.round(30_000 * SCALE),
};

const rand = mulberry32(SEED);
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = (list) => list[Math.floor(rand() * list.length)];
const chance = (p) => rand() < p;
const sample = (list, n) => {
  const out = new Set();
  for (let i = 0; i < n * 3 && out.size < Math.min(n, list.length); i++) out.add(pick(list));
  return [...out];
};
/** JSON.stringify with every non-ASCII UTF-16 unit written as a `\\uXXXX` escape (the same value once parsed). */
const asciiJson = (value) => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const pad = (n) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const slug = (name) => name.replace(/[\s:;/]/g, '_').replace(/[!?,.()'"[\]{}&%#@*+=~`^|<>$\\]/g, '');
const cap = (w) => w[0].toUpperCase() + w.slice(1);

// ---------------------------------------------------------------------------------------------
// Vocabulary (generated prose and names)

const WORDS = (
  'the a of and in to with on for from by as at his her their its is was are were has have who when after before while ' +
  'young girl boy world school city kingdom war love friend family secret power dream journey battle mystery life ' +
  'village academy demon hero witch knight dragon spirit sword magic robot ship island summer winter festival club ' +
  'finds discovers must learns begins fights protects searches returns meets joins loses travels becomes faces ' +
  'ancient strange hidden last first lonely brave quiet endless distant forgotten new true final dark bright'
).split(' ');
const SYLLABLES = 'ka ki ku ke ko sa shi su se so ta chi tsu te to na ni nu ne no ha hi fu he ho ma mi mu me mo ya yu yo ra ri ru re ro wa n ga gi gu ge go za ji zu ze zo da de do ba bi bu be bo pa pi pu pe po kyo ryu sho'.split(' ');
const MANGA_WORDS = 'hana sora yume kaze hoshi tsuki umi yoru koi sekai kimi boku ore tenshi akuma ou hime kishi mahou gakuen monogatari densetsu no to wa ga ni de'.split(' ');

function prose(minChars, maxChars) {
  const target = int(minChars, maxChars);
  let text = '';
  while (text.length < target) {
    const n = int(8, 18);
    const words = Array.from({ length: n }, () => pick(WORDS));
    text += (text ? ' ' : '') + cap(words.join(' ')) + '.';
  }
  return `${text}\n\n[Generated text for benchmarks]`;
}
const romajiWord = (min, max) => cap(Array.from({ length: int(min, max) }, () => pick(SYLLABLES)).join(''));
const personName = () => [romajiWord(2, 3), romajiWord(1, 3)];

function dateParts(fromYear, toYear) {
  const y = int(fromYear, toYear);
  return { year: y, month: int(1, 12), day: int(1, 28) };
}
const iso = (d) => (d ? `${d.year}-${pad(d.month)}-${pad(d.day)}T00:00:00+00:00` : null);
const prop = (d) => ({ day: d?.day ?? null, month: d?.month ?? null, year: d?.year ?? null });
const text = (d) => `${MONTHS[d.month - 1]} ${d.day}, ${d.year}`;
function dateRange(from, to, ongoing) {
  return {
    from: iso(from),
    to: iso(to),
    prop: { from: prop(from), to: prop(to) },
    string: from ? (to ? `${text(from)} to ${text(to)}` : ongoing ? `${text(from)} to ?` : text(from)) : null,
  };
}
function images(kind, id) {
  const base = `https://cdn.myanimelist.net/images/${kind}/${id % 13}/${100000 + id}`;
  return {
    jpg: { image_url: `${base}.jpg`, small_image_url: `${base}t.jpg`, large_image_url: `${base}l.jpg` },
    webp: { image_url: `${base}.webp`, small_image_url: `${base}t.webp`, large_image_url: `${base}l.webp` },
  };
}

// ---------------------------------------------------------------------------------------------
// Reference pools taken from the committed demo dataset (real MAL genre/studio/producer ids)

const demo = JSON.parse(fs.readFileSync(path.join(repoRoot, 'packages/demo-data/data/anime.json'), 'utf8'));
const pool = (key) => [...new Map(demo.flatMap((a) => a[key]).map((r) => [r.mal_id, r])).values()];
const POOLS = Object.fromEntries(['genres', 'explicit_genres', 'themes', 'demographics', 'studios', 'producers', 'licensors'].map((k) => [k, pool(k)]));
const values = (key) => [...new Set(demo.map((a) => a[key]).filter((v) => v !== null))];
const ANIME_TYPES = values('type');
const SOURCES = values('source');
const RATINGS = values('rating');
const DURATIONS = values('duration');
const NO_TRAILER = demo[0].trailer;
const SEASONS = ['winter', 'spring', 'summer', 'fall'];
const mangaRef = (r) => ({ ...r, type: 'manga', url: r.url.replace('/anime/', '/manga/') });

// ---------------------------------------------------------------------------------------------
// Anime: real titles and ids, generated fields

function readTitles() {
  const lines = zlib.gunzipSync(fs.readFileSync(path.join(here, 'titles.tsv.gz'))).toString('utf8').split('\n').filter(Boolean);
  return lines.map((line) => {
    const [id, title, english, japanese, synonyms] = line.split('\t');
    return { id: Number(id), title, english: english || null, japanese: japanese || null, synonyms: synonyms ? synonyms.split(' | ') : [], real: true };
  });
}

const SEQUELS = [' 2nd Season', ' Season 3', ' Movie', ' OVA', ' Specials', ' Final Season', ': Recap', ' Picture Drama', ' (TV)', ' II'];

function animeRecord(t, popularity) {
  const type = t.suffix === ' Movie' ? 'Movie' : t.suffix === ' OVA' ? 'OVA' : pick(ANIME_TYPES);
  const status = chance(0.93) ? 'Finished Airing' : chance(0.6) ? 'Currently Airing' : 'Not yet aired';
  const from = status === 'Not yet aired' ? (chance(0.5) ? dateParts(2026, 2027) : null) : dateParts(1963, 2025);
  const to = status === 'Finished Airing' && from && type !== 'Movie' ? { ...from, month: Math.min(12, from.month + int(0, 6)) } : null;
  const episodes = type === 'Movie' ? 1 : status === 'Finished Airing' ? pick([1, 2, 6, 10, 12, 13, 24, 25, 26, 50, 51]) : null;
  const scored = chance(0.65);
  const score = scored ? Math.round((5 + rand() * 4.2) * 100) / 100 : null;
  const titles = [{ type: 'Default', title: t.title }];
  for (const s of t.synonyms) titles.push({ type: 'Synonym', title: s });
  if (t.japanese) titles.push({ type: 'Japanese', title: t.japanese });
  if (t.english) titles.push({ type: 'English', title: t.english });
  const genres = sample(POOLS.genres, int(0, 4));
  const adult = chance(0.05);
  const airing = status === 'Currently Airing';
  return {
    mal_id: t.id,
    url: `https://myanimelist.net/anime/${t.id}/${slug(t.title)}`,
    images: images('anime', t.id),
    trailer: NO_TRAILER,
    approved: chance(0.995),
    titles,
    title: t.title,
    title_english: t.english,
    title_japanese: t.japanese,
    title_synonyms: t.synonyms,
    type,
    source: pick(SOURCES),
    episodes,
    status,
    airing,
    aired: dateRange(from, to, airing),
    duration: pick(DURATIONS),
    rating: adult ? 'Rx - Hentai' : pick(RATINGS.filter((r) => r !== 'Rx - Hentai')),
    score,
    scored_by: scored ? int(100, 2_000_000) : null,
    rank: scored ? popularity : null,
    popularity,
    members: Math.max(0, Math.round(4_000_000 / Math.sqrt(popularity)) - int(0, 50)),
    favorites: int(0, 5000),
    synopsis: chance(0.9) ? prose(300, 1100) : null,
    background: chance(0.2) ? prose(100, 400) : null,
    season: from && type === 'TV' ? SEASONS[Math.floor((from.month - 1) / 3)] : null,
    year: from && type === 'TV' ? from.year : null,
    broadcast: airing
      ? { day: 'Saturdays', time: '23:00', timezone: 'Asia/Tokyo', string: 'Saturdays at 23:00 (JST)' }
      : { day: null, time: null, timezone: null, string: null },
    producers: sample(POOLS.producers, int(0, 4)),
    licensors: sample(POOLS.licensors, int(0, 1)),
    studios: sample(POOLS.studios, int(0, 1)),
    genres: adult ? [...genres, POOLS.genres.find((g) => g.mal_id === 12) ?? genres[0]].filter(Boolean) : genres,
    explicit_genres: [],
    themes: sample(POOLS.themes, int(0, 2)),
    demographics: sample(POOLS.demographics, int(0, 1)),
  };
}

function buildAnime() {
  const real = readTitles();
  const all = real.slice(0, COUNTS.anime);
  let nextId = Math.max(...real.map((t) => t.id)) + 1;
  const seen = new Set(all.map((t) => t.title));
  while (all.length < COUNTS.anime) {
    const base = pick(real);
    const suffix = pick(SEQUELS);
    const title = base.title + suffix;
    if (seen.has(title)) continue;
    seen.add(title);
    all.push({
      id: nextId++,
      title,
      english: base.english ? base.english + suffix : null,
      japanese: base.japanese,
      synonyms: [],
      suffix,
      real: false,
    });
  }
  // Popularity: a seeded permutation, so that ties in relevance break like in a real catalogue.
  const order = all.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const popularity = new Array(all.length);
  order.forEach((idx, rank) => (popularity[idx] = rank + 1));
  return { records: all.map((t, i) => animeRecord(t, popularity[i])), real: all.filter((t) => t.real).length };
}

// ---------------------------------------------------------------------------------------------
// Manga, characters, people: generated

function personRecord(id) {
  const [given, family] = personName();
  const name = `${family}, ${given}`;
  return {
    mal_id: id,
    url: `https://myanimelist.net/people/${id}/${given}_${family}`,
    website_url: chance(0.1) ? `https://example.org/${given.toLowerCase()}` : null,
    images: { jpg: { image_url: `https://cdn.myanimelist.net/images/voiceactors/${id % 7}/${200000 + id}.jpg` } },
    name,
    given_name: given,
    family_name: family,
    alternate_names: chance(0.3) ? [`${given} ${family}`] : [],
    birthday: chance(0.6) ? iso(dateParts(1940, 2005)) : null,
    favorites: int(0, 20000),
    about: chance(0.7) ? prose(80, 500) : null,
  };
}

function characterRecord(id) {
  const [given, family] = personName();
  return {
    mal_id: id,
    url: `https://myanimelist.net/character/${id}/${given}_${family}`,
    images: {
      jpg: { image_url: `https://cdn.myanimelist.net/images/characters/${id % 17}/${300000 + id}.jpg`, small_image_url: null },
      webp: {
        image_url: `https://cdn.myanimelist.net/images/characters/${id % 17}/${300000 + id}.webp`,
        small_image_url: `https://cdn.myanimelist.net/images/characters/${id % 17}/${300000 + id}t.webp`,
      },
    },
    name: `${given} ${family}`,
    name_kanji: null,
    nicknames: chance(0.2) ? [romajiWord(1, 2)] : [],
    favorites: int(0, 50000),
    about: chance(0.8) ? prose(100, 900) : null,
  };
}

const MANGA_TYPES = ['Manga', 'Manga', 'Manga', 'Light Novel', 'One-shot', 'Manhwa', 'Doujinshi', 'Manhua', 'Novel'];
const MAGAZINES = Array.from({ length: 120 }, (_, i) => ({
  mal_id: i + 1,
  type: 'manga',
  name: `Shuukan ${romajiWord(2, 3)}`,
  url: `https://myanimelist.net/manga/magazine/${i + 1}`,
}));

function mangaRecord(id, people) {
  const words = Array.from({ length: int(1, 5) }, () => pick(MANGA_WORDS));
  const title = cap(words.join(' ')) + (chance(0.3) ? ` ${romajiWord(1, 3)}` : '');
  const english = chance(0.3) ? cap(Array.from({ length: int(2, 4) }, () => pick(WORDS)).join(' ')) : null;
  const status = chance(0.8) ? 'Finished' : chance(0.8) ? 'Publishing' : chance(0.5) ? 'On Hiatus' : 'Discontinued';
  const from = dateParts(1950, 2025);
  const to = status === 'Finished' ? { ...from, year: Math.min(2025, from.year + int(0, 10)) } : null;
  const scored = chance(0.6);
  const score = scored ? Math.round((5 + rand() * 4.2) * 100) / 100 : null;
  const authors = Array.from({ length: int(1, 2) }, () => {
    const p = pick(people);
    return { mal_id: p.mal_id, type: 'people', name: p.name, url: p.url };
  });
  const titles = [{ type: 'Default', title }];
  if (english) titles.push({ type: 'English', title: english });
  return {
    mal_id: id,
    url: `https://myanimelist.net/manga/${id}/${slug(title)}`,
    images: images('manga', id),
    approved: true,
    titles,
    title,
    title_english: english,
    title_japanese: null,
    title_synonyms: [],
    type: pick(MANGA_TYPES),
    chapters: status === 'Finished' ? int(1, 300) : null,
    volumes: status === 'Finished' ? int(1, 40) : null,
    status,
    publishing: status === 'Publishing',
    published: dateRange(from, to, status === 'Publishing'),
    score,
    scored: score,
    scored_by: scored ? int(50, 500_000) : null,
    rank: scored ? int(1, 60000) : null,
    popularity: int(1, 70000),
    members: int(0, 800_000),
    favorites: int(0, 30000),
    synopsis: chance(0.85) ? prose(250, 1000) : null,
    background: chance(0.15) ? prose(100, 300) : null,
    authors,
    serializations: chance(0.7) ? [pick(MAGAZINES)] : [],
    genres: sample(POOLS.genres, int(0, 4)).map(mangaRef),
    explicit_genres: [],
    themes: sample(POOLS.themes, int(0, 2)).map(mangaRef),
    demographics: sample(POOLS.demographics, int(0, 1)).map(mangaRef),
  };
}

// ---------------------------------------------------------------------------------------------

async function validator() {
  register();
  const load = (name) => import(pathToFileURL(path.join(repoRoot, 'packages/core/src/schemas', name)).href);
  const schemas = {};
  const tries = [
    ['anime', 'anime.ts', 'animeSchema'],
    ['manga', 'manga.ts', 'mangaSchema'],
    ['characters', 'character.ts', 'characterSchema'],
    ['people', 'person.ts', 'personSchema'],
  ];
  for (const [kind, file, name] of tries) {
    try {
      schemas[kind] = (await load(file))[name];
    } catch (error) {
      console.warn(`  no schema for ${kind} (${file}: ${error.message}); records not validated`);
    }
  }
  return schemas;
}

const started = performance.now();
fs.mkdirSync(outDir, { recursive: true });
const schemas = await validator();
const people = Array.from({ length: COUNTS.people }, (_, i) => personRecord(i + 1));
const { records: anime, real } = buildAnime();
const manga = Array.from({ length: COUNTS.manga }, (_, i) => mangaRecord(i + 1, people));
const characters = Array.from({ length: COUNTS.characters }, (_, i) => characterRecord(i + 1));
// Rank and popularity as MAL defines them, from each set's own scores and members (the generators
// above draw them independently), so top lists number entries as a client expects.
for (const [label, records] of [['bench anime', anime], ['bench manga', manga]]) {
  assignMediaRanks(records);
  checkMediaRanks(label, records);
}
const sets = { anime, manga, characters, people };
const manifest = { seed: SEED, scale: SCALE, counts: {}, realAnimeTitles: real, validated: {}, bytes: {} };
for (const [kind, records] of Object.entries(sets)) {
  const schema = schemas[kind];
  if (schema) {
    for (const record of records) {
      const result = schema.safeParse(record);
      if (!result.success) throw new Error(`${kind} ${record.mal_id} is not schema-valid: ${result.error.message}`);
    }
  }
  const file = path.join(outDir, `${kind}.json`);
  // One record per line: readable, and still one JSON.parse. ASCII only (other characters as \u
  // escapes): V8 parses a one-byte string ~20 % faster than the two-byte string non-ASCII text becomes.
  fs.writeFileSync(file, `[\n${records.map((r) => asciiJson(r)).join(',\n')}\n]\n`);
  manifest.counts[kind] = records.length;
  manifest.validated[kind] = Boolean(schema);
  manifest.bytes[kind] = fs.statSync(file).size;
}
fs.writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
const mib = (n) => (n / 2 ** 20).toFixed(1);
console.log(
  `bench data in ${path.relative(repoRoot, outDir)}: ` +
    Object.entries(manifest.counts)
      .map(([k, n]) => `${n} ${k} (${mib(manifest.bytes[k])} MiB)`)
      .join(', ') +
    `; ${real} anime with real titles; ${(performance.now() - started) / 1000 | 0} s`,
);
