#!/usr/bin/env node
/**
 * Builds the embedded demo dataset of `@catalogue-api/demo-data` from source files of real
 * catalogue data that are not part of this repository (their origins are listed in
 * `packages/demo-data/NOTICE.md`). Set `SHARED_DATA` to the folder that holds them; the default is
 * a `shared/data` folder beside the repository. The built dataset is committed, so only a change
 * to the dataset needs this.
 *
 * Writes `packages/demo-data/data/anime.json` (Jikan v4 anime records, sorted by mal_id) and
 * `packages/demo-data/NOTICE.md` (attribution and a list of generated values).
 *
 * Deterministic: no clock, no Math.random; the only pseudo-random choice uses a seeded mulberry32.
 * Node builtins only. Usage: `npm run build:demo-data`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCsv } from '../lib/csv.mjs';
import { readSourceJson, readSourceText, requireSourceFiles, sourceDataDir } from '../lib/source-files.mjs';
import { assignMediaRanks, checkMediaRanks } from '../lib/media-ranks.mjs';
import { mulberry32 } from '../lib/mulberry32.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = path.join(repoRoot, 'packages', 'demo-data');

const FILE_ATE = 'anime-tv-2006-2027.ate329.json.gz';
const FILE_KAGGLE = 'anime-2023.full-ids-1-2000.csv.gz';
const FILE_GENRES = 'mal-genres.json';
requireSourceFiles('build:demo-data', sourceDataDir, [FILE_ATE, FILE_KAGGLE, FILE_GENRES]);

// ---------------------------------------------------------------------------------------------
// Field helpers

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n) => String(n).padStart(2, '0');

/** MAL-style URL slug: spaces and `:;/` become `_`, other punctuation is dropped. */
const slug = (name) =>
  name
    .replace(/[\s:;/]/g, '_')
    .replace(/[!?,.()'"[\]{}&%#@*+=~`^|<>$\\]/g, '');

const nullIfUnknown = (s) => (s === undefined || s === null || s === '' || s === 'UNKNOWN' ? null : s);
const intOrNull = (s) => {
  const v = nullIfUnknown(s);
  if (v === null) return null;
  const n = Number(v);
  return Number.isFinite(n) ? Math.round(n) : null;
};
const numOrNull = (s) => {
  const v = nullIfUnknown(s);
  if (v === null) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const listOf = (s) => {
  const v = nullIfUnknown(s);
  return v === null ? [] : v.split(',').map((x) => x.trim()).filter(Boolean);
};

/** A date with its precision: {year, month|null, day|null}. */
const dateToIso = (d) => (d ? `${d.year}-${pad(d.month ?? 1)}-${pad(d.day ?? 1)}T00:00:00+00:00` : null);
const dateToProp = (d) => ({ day: d?.day ?? null, month: d?.month ?? null, year: d?.year ?? null });
const dateToText = (d) =>
  d.day ? `${MONTHS[d.month - 1]} ${d.day}, ${d.year}` : d.month ? `${MONTHS[d.month - 1]} ${d.year}` : `${d.year}`;

function buildAired(from, to, status) {
  let string = null;
  if (from) {
    if (to) string = `${dateToText(from)} to ${dateToText(to)}`;
    else if (status === 'Finished Airing') string = dateToText(from);
    else string = `${dateToText(from)} to ?`;
  }
  return {
    from: dateToIso(from),
    to: dateToIso(to),
    prop: { from: dateToProp(from), to: dateToProp(to) },
    string,
  };
}

/** ISO string (from anime-tv-2006-2027.ate329.json.gz) → date parts. */
function isoToDate(iso) {
  if (!iso) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return null;
  return { year: +m[1], month: +m[2], day: +m[3] };
}

/** Kaggle display date ("Apr 3, 1998", "Apr 1998", "1998", "?") → date parts. */
function textToDate(s) {
  if (!s || s === '?') return null;
  let m = /^([A-Z][a-z]{2}) {1,2}(\d{1,2}), (\d{4})$/.exec(s);
  if (m) return { year: +m[3], month: MONTHS.indexOf(m[1]) + 1, day: +m[2] };
  m = /^([A-Z][a-z]{2}) (\d{4})$/.exec(s);
  if (m) return { year: +m[2], month: MONTHS.indexOf(m[1]) + 1, day: null };
  m = /^(\d{4})$/.exec(s);
  if (m) return { year: +m[1], month: null, day: null };
  throw new Error(`unparsed date: ${s}`);
}

function images(cdnUrl) {
  const m = /^(https:\/\/cdn\.myanimelist\.net\/images\/anime\/\d+\/\d+?)(l?)\.(jpg|webp)$/.exec(cdnUrl ?? '');
  const none = { image_url: null, small_image_url: null, large_image_url: null };
  if (!m) return { jpg: { ...none }, webp: { ...none } };
  const base = m[1];
  const set = (ext) => ({ image_url: `${base}.${ext}`, small_image_url: `${base}t.${ext}`, large_image_url: `${base}l.${ext}` });
  return { jpg: set('jpg'), webp: set('webp') };
}

/** The trailer fields v1 adds to Jikan v4's, in the order the API writes them; the sources know none of them. */
const V1_TRAILER_FIELDS = ['title', 'views', 'likes', 'dislikes', 'comment_count', 'published_at', 'duration', 'privacy_status', 'region_restriction', 'embeddable'];

function trailer(embedUrl) {
  const m = /\/embed\/([A-Za-z0-9_-]{6,})/.exec(embedUrl ?? '');
  const id = m ? m[1] : null;
  const yt = (f) => (id ? `https://img.youtube.com/vi/${id}/${f}` : null);
  return {
    youtube_id: id,
    url: id ? `https://www.youtube.com/watch?v=${id}` : null,
    embed_url: id ? `https://www.youtube.com/embed/${id}?enablejsapi=1&wmode=opaque&autoplay=1` : null,
    images: {
      image_url: yt('default.jpg'),
      small_image_url: yt('sddefault.jpg'),
      medium_image_url: yt('mqdefault.jpg'),
      large_image_url: yt('hqdefault.jpg'),
      maximum_image_url: yt('maxresdefault.jpg'),
    },
    ...Object.fromEntries(V1_TRAILER_FIELDS.map((k) => [k, null])),
  };
}

function broadcast(s) {
  const none = { day: null, time: null, timezone: null, string: null };
  if (!s || s === 'Unknown') return none;
  let m = /^(\w+days) at (\d{2}:\d{2}) \(JST\)$/.exec(s);
  if (m) return { day: m[1], time: m[2], timezone: 'Asia/Tokyo', string: s };
  m = /^(\w+days) at Unknown$/.exec(s);
  if (m) return { day: m[1], time: null, timezone: null, string: s };
  return { ...none, string: s };
}

const titles = (title, synonyms, japanese, english) => [
  { type: 'Default', title },
  ...synonyms.map((t) => ({ type: 'Synonym', title: t })),
  ...(japanese ? [{ type: 'Japanese', title: japanese }] : []),
  ...(english ? [{ type: 'English', title: english }] : []),
];

// ---------------------------------------------------------------------------------------------
// Composed one-line synopsis (no third-party prose)

const SOURCE_PHRASE = {
  Original: 'an original work',
  Manga: 'a manga',
  'Light novel': 'a light novel',
  'Visual novel': 'a visual novel',
  Game: 'a game',
  Novel: 'a novel',
  '4-koma manga': 'a 4-koma manga',
  'Web manga': 'a web manga',
  'Web novel': 'a web novel',
  'Card game': 'a card game',
  'Picture book': 'a picture book',
  Book: 'a book',
  Music: 'a music work',
  Radio: 'a radio programme',
  'Mixed media': 'a mixed-media project',
};
const TYPE_NOUN = { TV: 'TV anime', Movie: 'anime film', OVA: 'OVA', Special: 'anime special', ONA: 'ONA', Music: 'anime music video' };
const article = (word) => (/^([aeiou]|OVA|ONA|8|11-|18-)/i.test(word) ? 'An' : 'A');

function composeSynopsis(r) {
  let noun = TYPE_NOUN[r.type] ?? `${r.type} anime`;
  if (r.episodes && r.episodes > 1) noun = `${r.episodes}-episode ${noun}`;
  else if (r.episodes === 1 && r.type !== 'Movie' && r.type !== 'Music') noun = `single-episode ${noun}`;
  const year = r.aired.prop.from.year ?? r.year;
  let head;
  if (r.status === 'Not yet aired') {
    head = `${article('upcoming')} upcoming ${noun}${year ? ` scheduled for ${year}` : ''}`;
  } else if (r.status === 'Currently Airing') {
    head = `${article(noun)} ${noun}${year ? ` airing since ${year}` : ' currently airing'}`;
  } else head = `${article(noun)} ${noun}${year ? ` from ${year}` : ''}`;
  const studios = r.studios.map((s) => s.name);
  const by = studios.length === 0 ? '' : studios.length <= 2 ? ` by ${studios.join(' and ')}` : ` by ${studios[0]} and others`;
  const src = SOURCE_PHRASE[r.source];
  const text = `${head}${by}${src ? `, ${src === 'an original work' ? 'based on an original work' : `adapted from ${src}`}` : ''}.`;
  return text.length <= 200 ? text : `${head}.`;
}

// ---------------------------------------------------------------------------------------------
// Load sources

const genreFile = readSourceJson(FILE_GENRES);
const genreByName = new Map(genreFile.anime.map((g) => [g.name, g]));

const ate = readSourceJson(FILE_ATE);
const ateById = new Map(ate.map((r) => [r.mal_id, r]));

const csv = parseCsv(readSourceText(FILE_KAGGLE));
const header = csv[0];
const kaggle = csv
  .slice(1)
  .filter((row) => row.length === header.length) // the last row is truncated in the source
  .map((row) => Object.fromEntries(header.map((k, i) => [k, row[i]])));
const kaggleById = new Map(kaggle.map((r) => [Number(r.anime_id), r]));

/** A normalised intermediate record: names only for producers etc. */
function fromAte(r) {
  return {
    src: 'ate',
    mal_id: r.mal_id,
    url: r.url,
    image: r.image_url,
    trailer: r.trailer_url,
    title: r.title,
    title_english: r.title_english || null,
    title_japanese: r.title_japanese || null,
    title_synonyms: r.title_synonyms ?? [],
    type: r.type,
    source: r.source || 'Unknown',
    episodes: r.episodes ?? null,
    status: r.status,
    from: isoToDate(r.aired_from),
    to: isoToDate(r.aired_to),
    duration: r.duration || null,
    rating: r.rating ?? null,
    score: r.score ?? null,
    scored_by: r.scored_by ?? null,
    rank: r.rank ?? null,
    popularity: r.popularity ?? null,
    members: r.members ?? null,
    favorites: r.favorites ?? null,
    season: r.season ?? null,
    year: r.year ?? null,
    broadcast: r.broadcast,
    producers: r.producers,
    licensors: r.licensors,
    studios: r.studios,
    genreNames: [...r.genres, ...r.themes, ...r.demographics],
  };
}

function fromKaggle(r) {
  const [fromText, toText] = r.Aired.split(' to ');
  const prem = /^(spring|summer|fall|winter) (\d{4})$/.exec(r.Premiered);
  const title = r.Name;
  return {
    src: 'kaggle',
    mal_id: Number(r.anime_id),
    url: `https://myanimelist.net/anime/${r.anime_id}/${slug(title)}`,
    image: r['Image URL'],
    trailer: null,
    title,
    title_english: nullIfUnknown(r['English name']),
    title_japanese: nullIfUnknown(r['Other name']),
    title_synonyms: [],
    type: r.Type,
    source: nullIfUnknown(r.Source) ?? 'Unknown',
    episodes: intOrNull(r.Episodes),
    status: r.Status,
    from: r.Aired === 'Not available' ? null : textToDate(fromText),
    to: toText === undefined ? null : textToDate(toText),
    duration: nullIfUnknown(r.Duration),
    rating: nullIfUnknown(r.Rating),
    score: numOrNull(r.Score),
    scored_by: intOrNull(r['Scored By']),
    rank: intOrNull(r.Rank),
    popularity: intOrNull(r.Popularity),
    members: intOrNull(r.Members),
    favorites: intOrNull(r.Favorites),
    season: prem ? prem[1] : null,
    year: prem ? Number(prem[2]) : null,
    broadcast: null,
    producers: listOf(r.Producers),
    licensors: listOf(r.Licensors),
    studios: listOf(r.Studios),
    genreNames: listOf(r.Genres),
  };
}

// ---------------------------------------------------------------------------------------------
// Deterministic selection

/** Well-known franchises, so search tests are meaningful (those present in a source). */
const MUST = [
  1, 5, 6, 19, 20, 21, 30, 43, 164, 199, 269, 431, 918, 1535, 1575, 1735, 2167, 2904, 4224, 5114, 5081, 6547, 9253,
  10087, 11061, 11757, 11771, 16498, 20583, 22319, 30276, 30831, 31240, 31964, 32182, 33352, 34599, 37521, 37999,
  38000, 38691, 40748, 42249, 44511, 50265, 52034, 52991,
];

const selected = new Map(); // mal_id -> reason
const add = (id, reason) => {
  if (!selected.has(id) && (ateById.has(id) || kaggleById.has(id))) selected.set(id, reason);
};
const byPopularity = (a, b) => (a.popularity ?? 1e9) - (b.popularity ?? 1e9) || a.mal_id - b.mal_id;
const byMembers = (a, b) => (Number(b.Members) || 0) - (Number(a.Members) || 0) || Number(a.anime_id) - Number(b.anime_id);
const take = (list, n, reason, key = (r) => r.mal_id) => {
  let k = 0;
  for (const r of list) {
    if (k >= n) break;
    if (!selected.has(key(r))) {
      add(key(r), reason);
      k++;
    }
  }
};
const kid = (r) => Number(r.anime_id);

for (const id of MUST) add(id, 'franchise');

// anime-tv-2006-2027.ate329.json.gz: popular TV anime with an English title and synonyms.
const ateSorted = [...ate].sort(byPopularity);
take(ateSorted.filter((r) => r.title_english && r.title_synonyms.length > 0), 150, 'popular-tv');
// Same file: airing and upcoming.
take(ateSorted.filter((r) => r.status === 'Currently Airing'), 20, 'airing');
take(ateSorted.filter((r) => r.status === 'Not yet aired'), 16, 'upcoming');
// Same file: explicit genres and R+.
take(ateSorted.filter((r) => r.genres.includes('Erotica')), 4, 'erotica');
take(ateSorted.filter((r) => r.genres.includes('Ecchi')), 8, 'ecchi');
take(ateSorted.filter((r) => r.rating === 'R+ - Mild Nudity'), 4, 'r-plus');
// Same file: null fields.
take(ateSorted.filter((r) => !r.title_english), 10, 'no-english');
take(ateSorted.filter((r) => r.status === 'Finished Airing' && r.score === null), 4, 'no-score');
take(ateSorted.filter((r) => r.status !== 'Not yet aired' && r.episodes === null), 3, 'no-episodes');
take(ateSorted.filter((r) => r.rank === null && r.status !== 'Not yet aired'), 3, 'no-rank');
take(ateSorted.filter((r) => r.rating === null), 2, 'no-rating');
take(ateSorted.filter((r) => r.trailer_url === null && r.title_english), 3, 'no-trailer');
take(ateSorted.filter((r) => r.broadcast === 'Not scheduled once per week'), 2, 'broadcast-unscheduled');
take(ateSorted.filter((r) => r.rating === 'G - All Ages'), 4, 'g');

// anime-2023.full-ids-1-2000.csv.gz: every type, ratings, explicit genres and nulls.
const kSorted = [...kaggle].sort(byMembers);
const TYPE_QUOTA = { TV: 25, Movie: 30, OVA: 30, Special: 18, ONA: 12, Music: 6 };
for (const [type, n] of Object.entries(TYPE_QUOTA)) take(kSorted.filter((r) => r.Type === type), n, `type-${type}`, kid);
take(kSorted.filter((r) => r.Status === 'Currently Airing'), 5, 'airing', kid);
take(kSorted.filter((r) => r.Rating === 'Rx - Hentai'), 12, 'rx', kid);
take(kSorted.filter((r) => r.Rating === 'R+ - Mild Nudity'), 10, 'r-plus', kid);
take(kSorted.filter((r) => r.Rating === 'G - All Ages'), 6, 'g', kid);
take(kSorted.filter((r) => r.Rating === 'PG - Children'), 6, 'pg', kid);
take(kSorted.filter((r) => r.Rating === 'UNKNOWN'), 2, 'no-rating', kid);
take(kSorted.filter((r) => /\bErotica\b/.test(r.Genres)), 4, 'erotica', kid);
take(kSorted.filter((r) => /\bEcchi\b/.test(r.Genres)), 4, 'ecchi', kid);
take(kSorted.filter((r) => r['English name'] === 'UNKNOWN'), 10, 'no-english', kid);
take(kSorted.filter((r) => r.Score === 'UNKNOWN'), 3, 'no-score', kid);
take(kSorted.filter((r) => r.Rank === 'UNKNOWN'), 3, 'no-rank', kid);
take(kSorted.filter((r) => r.Episodes === 'UNKNOWN'), 2, 'no-episodes', kid);
take(kSorted.filter((r) => /^\d{4}$|^[A-Z][a-z]{2} \d{4}/.test(r.Aired)), 3, 'partial-date', kid);

const ids = [...selected.keys()].sort((a, b) => a - b);
const inter = ids.map((id) => (ateById.has(id) ? fromAte(ateById.get(id)) : fromKaggle(kaggleById.get(id))));

// approved=false: 8 records chosen with a seeded PRNG among those not picked as franchises.
const rand = mulberry32(0x5eed2024);
const pool = inter.filter((r) => selected.get(r.mal_id) !== 'franchise').map((r) => r.mal_id);
const unapproved = new Set();
while (unapproved.size < 8) unapproved.add(pool[Math.floor(rand() * pool.length)]);

// Producer/licensor/studio ids: one id space; distinct names sorted by code point → 1..n.
const companyNames = [...new Set(inter.flatMap((r) => [...r.producers, ...r.licensors, ...r.studios]))].sort((a, b) =>
  a < b ? -1 : a > b ? 1 : 0,
);
const companyId = new Map(companyNames.map((n, i) => [n, i + 1]));
const company = (name) => ({
  mal_id: companyId.get(name),
  type: 'anime',
  name,
  url: `https://generated.invalid/anime/producer/${companyId.get(name)}/${slug(name)}`,
});

const unknownGenres = new Set();
function genreRefs(names) {
  const out = { genres: [], explicit_genres: [], themes: [], demographics: [] };
  for (const name of names) {
    const g = genreByName.get(name);
    if (!g) {
      unknownGenres.add(name);
      continue;
    }
    if (out[g.category].some((x) => x.mal_id === g.mal_id)) continue;
    out[g.category].push({ mal_id: g.mal_id, type: 'anime', name: g.name, url: g.url });
  }
  return out;
}

function finalize(r) {
  let from = r.from;
  // An upcoming date of the 1st is how MAL stores a month-only ("Apr 2026") or year-only date.
  if (from && r.status === 'Not yet aired' && from.day === 1) {
    from = from.month === 1 ? { year: from.year, month: null, day: null } : { ...from, day: null };
  }
  const g = genreRefs(r.genreNames);
  const rec = {
    mal_id: r.mal_id,
    url: r.url,
    images: images(r.image),
    trailer: trailer(r.trailer),
    approved: !unapproved.has(r.mal_id),
    titles: titles(r.title, r.title_synonyms, r.title_japanese, r.title_english),
    title: r.title,
    title_english: r.title_english,
    title_japanese: r.title_japanese,
    title_synonyms: r.title_synonyms,
    type: r.type,
    source: r.source,
    episodes: r.episodes,
    status: r.status,
    airing: r.status === 'Currently Airing',
    aired: buildAired(from, r.to, r.status),
    duration: r.duration,
    rating: r.rating,
    score: r.score,
    scored_by: r.scored_by,
    rank: r.rank,
    popularity: r.popularity,
    members: r.members,
    favorites: r.favorites,
    synopsis: null,
    background: null,
    season: r.season,
    year: r.year,
    broadcast: broadcast(r.broadcast),
    producers: r.producers.map(company),
    licensors: r.licensors.map(company),
    studios: r.studios.map(company),
    genres: g.genres,
    explicit_genres: g.explicit_genres,
    themes: g.themes,
    demographics: g.demographics,
  };
  rec.synopsis = composeSynopsis(rec);
  return rec;
}

const records = inter.map(finalize);
if (unknownGenres.size) throw new Error(`genre names not in ${FILE_GENRES}: ${[...unknownGenres].join(', ')}`);

// Rank and popularity: the two sources are snapshots of different years, so their ranks contradict
// each other's scores. Each record keeps its MAL value where it fits the score (members) order of
// the whole set; the others get the nearest value that fits (see scripts/lib/media-ranks.mjs).
const sourceRank = new Map(inter.map((r) => [r.mal_id, { rank: r.rank, popularity: r.popularity }]));
const rankChanges = assignMediaRanks(records, { anchor: (r, field) => sourceRank.get(r.mal_id)[field] });
checkMediaRanks('demo anime', records);
const rankKept = records.filter((r) => r.rank !== null && r.rank === sourceRank.get(r.mal_id).rank).length;
const popularityKept = records.filter((r) => r.popularity !== null && r.popularity === sourceRank.get(r.mal_id).popularity).length;

// ---------------------------------------------------------------------------------------------
// Write outputs

fs.mkdirSync(path.join(outDir, 'data'), { recursive: true });
const json = `[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
fs.writeFileSync(path.join(outDir, 'data', 'anime.json'), json);

const count = (f) => {
  const m = new Map();
  for (const r of records) for (const k of [f(r)].flat()) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
};
const table = (rows) => rows.map(([k, n]) => `| ${k ?? '(null)'} | ${n} |`).join('\n');
const unapprovedRecs = records.filter((r) => !r.approved);
const fromAteCount = inter.filter((r) => r.src === 'ate').length;

const notice = `# NOTICE: @catalogue-api/demo-data

This file is generated by \`scripts/demo-data/build.mjs\` (\`npm run build:demo-data\`); do not edit it by hand.

**Data: MyAnimeList (myanimelist.net) via Jikan.** Every catalogue fact in \`data/anime.json\`
(titles, types, episode counts, dates, ratings, scores, member counts, studios, genres…) comes from
MyAnimeList, gathered through the Jikan API (jikan.moe) by the third parties named below.
MyAnimeList is not affiliated with this project. \`rank\` and \`popularity\` are MAL's where they agree
with the scores and member counts of the whole set, and fitted otherwise (see "Generated or assigned
values" below).

## Source files used

| file | origin | licence / terms | records used |
|---|---|---|---|
| \`${FILE_ATE}\` | GitHub \`Ate329/anime-stats-tracker\` @ \`8fe3d0cb1f7f83786fa74808f204d5b602607884\`, \`data/<year>/<season>.json\` (concatenated unchanged) | MIT, Copyright (c) 2025 Zhiyong (Justin) He. "Data: MyAnimeList via Jikan, compiled by Ate329/anime-stats-tracker (MIT)" | ${fromAteCount} (TV anime, 2006–2027) |
| \`${FILE_KAGGLE}\` | Kaggle "Anime Dataset 2023" (\`anime-dataset-2023.csv\`), rows for MAL ids 1–2000, via GitHub \`dvong1/AnimeRec-Chatbot\` @ \`7db72ec3dc8794012113574dc74f65ab0586d8d6\` | Data from MAL via Jikan, compiled by the Kaggle dataset's author; the Kaggle licence could not be verified, so **facts only** are used (no synopsis text) | ${records.length - fromAteCount} (all types) |
| \`${FILE_GENRES}\` | genre/theme/demographic ids from \`jikan-me/jikan\` @ \`6a256095027f3e8d12f6fa97677d1a045b8af6f0\`, \`src/Helper/Constants.php\`, checked against a real \`/v4/genres/anime\` response | "genre ids: Jikan (MIT) / MyAnimeList" | genre references |

Where a MAL id is in both anime files, the Ate329 record is used. No other file of the shared data
set (bangumi-data, CooperUnion 2016, arm, manami dead ids, top-list scrapes, Jikan samples) is used
in this dataset.

## No third-party prose

MyAnimeList's own text is not included: \`background\` is always \`null\`, and \`synopsis\` is a
one-line factual summary composed by the build script from the record's own fields (type,
episodes, year, studios, source), e.g. "A 26-episode TV anime from 1998 by Sunrise, based on an
original work."

## Changes and derivations

- Records are reshaped into the Jikan v4 anime object: \`titles[]\` from the title fields;
  \`images\` (jpg/webp, three sizes) from the one MAL CDN URL given; \`trailer\` (ids, URLs and
  thumbnail URLs) from the YouTube embed URL; \`aired.prop\` and \`aired.string\` from the dates;
  \`broadcast.day/time/timezone\` parsed from the broadcast string ("Unknown" → all null);
  \`season\`/\`year\` from the premiered field; \`airing\` from \`status\`.
- Ecchi, Erotica and Hentai are moved from the genre list to \`explicit_genres\`; themes and
  demographics are separated by the categories of \`${FILE_GENRES}\`.
- Kaggle values "UNKNOWN" become \`null\` (an unknown \`source\` becomes "Unknown"); "26.0"-style
  numbers become integers. The truncated last row of the Kaggle file is ignored.
- For not-yet-aired anime, a start date on the 1st of a month is read as month precision
  ("Apr 2026"), and on January 1st as year precision, since that is how MAL stores such dates.
- For Kaggle records, \`url\` is built as \`https://myanimelist.net/anime/<id>/<title>\` with MAL's
  slug rules approximated (spaces and \`:;/\` → \`_\`, other punctuation dropped).

## Generated or assigned values

These values are **not** MyAnimeList data:

- **Producer, licensor and studio \`mal_id\`s are assigned by this project**, not MAL's ids: the
  sources give names only. All ${companyNames.length} distinct names (producers, licensors and studios
  share one id space) are sorted by code point and numbered 1..${companyNames.length}. Their \`url\`s
  (\`https://generated.invalid/anime/producer/<id>/<Name>\`) are under a host that never resolves
  (\`.invalid\`, RFC 2606), like every other generated link, so that none leads to an unrelated real page.
- **\`approved: false\`** is set on ${unapprovedRecs.length} records chosen with a seeded PRNG (mulberry32, fixed
  seed) so that the \`unapproved\` filter has data (and, as MAL ranks only approved entries, they carry no
  \`rank\`); on MAL these entries are approved:
${unapprovedRecs.map((r) => `  - ${r.mal_id} ${r.title}`).join('\n')}
- **\`rank\` and \`popularity\` are fitted to the set.** The two source files are snapshots of
  different years, so their ranks contradict each other's scores (and some scored entries have no
  rank). As on MAL, \`rank\` orders the approved, scored entries by \`score\` (no score or unapproved:
  no rank) and \`popularity\` orders entries by \`members\`, both without ties. A record keeps its MAL
  value where that fits the order of the whole set (${rankKept} ranks and ${popularityKept} popularity values are MAL's);
  the others (${rankChanges.rankChanged} ranks, ${rankChanges.popularityChanged} popularity values, and the
  scored entries the sources left unranked) get the nearest value between their neighbours that fits.
  \`scripts/lib/media-ranks.mjs\` does this and the build fails when a record breaks the order.
- **\`synopsis\`** is composed by the build script (see above); \`background\` is \`null\`.
- The trailer v1 fields (\`title\`, \`views\`, \`likes\`, \`dislikes\`, \`comment_count\`,
  \`published_at\`, \`duration\`, \`privacy_status\`, \`region_restriction\`, \`embeddable\`) are \`null\`.
- Kaggle records have no \`title_synonyms\` (empty), no trailer and no broadcast (all \`null\`).

## Contents (${records.length} anime)

| type | count |
|---|---|
${table(count((r) => r.type))}

| status | count |
|---|---|
${table(count((r) => r.status))}

| rating | count |
|---|---|
${table(count((r) => r.rating))}

| explicit genre | count |
|---|---|
${table(count((r) => r.explicit_genres.map((g) => g.name)))}

With \`title_english\`: ${records.filter((r) => r.title_english).length}. With at least one synonym: ${
  records.filter((r) => r.title_synonyms.length > 0).length
}.
`;
fs.writeFileSync(path.join(outDir, 'NOTICE.md'), notice);

console.log(`wrote ${records.length} anime (${(json.length / 1024).toFixed(0)} KiB) and NOTICE.md`);
