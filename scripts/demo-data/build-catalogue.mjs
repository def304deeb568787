#!/usr/bin/env node
/**
 * Builds every non-anime collection of the demo dataset (`packages/demo-data/data/<resource>.json`)
 * around the anime records that `build.mjs` wrote, so that every catalogue endpoint answers with
 * non-empty, linked data: manga, characters, people, producers, magazines, genres, cast and staff,
 * relations, episodes, videos, pictures, statistics, reviews, recommendations, news, articles,
 * stacks, forum threads, update times and deleted ids.
 *
 * Real facts are used where the source data has them (files outside this repository, listed in
 * NOTICE.md; `SHARED_DATA` names their folder, default a `shared/data` folder beside the repository): manga and author facts from the Jikan samples (no MAL prose),
 * character names from the Jikan samples, external and streaming links from bangumi-data and arm,
 * deleted anime ids from manami's dead-entries list. Everything else is generated from a fixed seed
 * and listed as generated in NOTICE.md (between the catalogue markers, which this script rewrites).
 *
 * Deterministic: no clock, no Math.random. Node builtins only. Usage: `npm run build:catalogue-data`
 * (after `npm run build:demo-data`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignMediaRanks, checkMediaRanks } from '../lib/media-ranks.mjs';
import { mulberry32 } from '../lib/mulberry32.mjs';
import { readSourceJson, requireSourceFiles, sourceDataDir } from '../lib/source-files.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkgDir = path.join(repoRoot, 'packages', 'demo-data');
const outDir = path.join(pkgDir, 'data');

requireSourceFiles('build:catalogue-data', sourceDataDir, [
  'mal-genres.json',
  'jikan-v4-samples/manga-objects.json',
  'jikan-v4-samples/character-objects.json',
  'jikan-v4-samples/characters-search-response.json',
  'bangumi-data-0.3.208.json.gz',
  'arm-0.225.0.json.gz',
  'dead-anime-ids.myanimelist.manami-2025-06-20.json.gz',
]);
if (!fs.existsSync(path.join(outDir, 'anime.json'))) {
  console.error('npm run build:catalogue-data builds around packages/demo-data/data/anime.json: run npm run build:demo-data first.');
  process.exit(1);
}


// ---------------------------------------------------------------------------------------------
// Seeded randomness: one mulberry32 stream per section, so editing one section never reshuffles another.

function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
const SEED = 20260421;
function rng(section) {
  const r = mulberry32(SEED ^ hash(section));
  return {
    next: r,
    int: (lo, hi) => lo + Math.floor(r() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(r() * list.length)],
    chance: (p) => r() < p,
    sample: (list, n) => {
      const copy = [...list];
      const out = [];
      while (out.length < n && copy.length) out.push(copy.splice(Math.floor(r() * copy.length), 1)[0]);
      return out;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Inputs

const anime = JSON.parse(fs.readFileSync(path.join(outDir, 'anime.json'), 'utf8'));
const animeById = new Map(anime.map((a) => [a.mal_id, a]));
const genreFile = readSourceJson('mal-genres.json');
const sampleManga = readSourceJson('jikan-v4-samples/manga-objects.json').data;
const sampleCharacters = [
  ...readSourceJson('jikan-v4-samples/character-objects.json').data,
  ...readSourceJson('jikan-v4-samples/characters-search-response.json').data,
];
const bangumi = readSourceJson('bangumi-data-0.3.208.json.gz');
const arm = readSourceJson('arm-0.225.0.json.gz');
const dead = readSourceJson('dead-anime-ids.myanimelist.manami-2025-06-20.json.gz');

// ---------------------------------------------------------------------------------------------
// Shared helpers

const slug = (s) =>
  s
    .replace(/[\s:;/]+/g, '_')
    .replace(/[^\p{L}\p{N}_-]/gu, '')
    .replace(/_+/g, '_');
const nullImages = () => ({
  jpg: { image_url: null, small_image_url: null, large_image_url: null },
  webp: { image_url: null, small_image_url: null, large_image_url: null },
});
const ONE_IMAGE_NULL = () => ({ jpg: { image_url: null } });
const iso = (ms) => new Date(ms).toISOString().replace('.000Z', '+00:00');
const DAY = 86_400_000;
const BASE_DATE = Date.UTC(2026, 0, 1);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function dateRange(fromMs, toMs) {
  const prop = (ms) => (ms === null ? { day: null, month: null, year: null } : ((d) => ({ day: d.getUTCDate(), month: d.getUTCMonth() + 1, year: d.getUTCFullYear() }))(new Date(ms)));
  const text = (ms) => ((d) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`)(new Date(ms));
  return {
    from: fromMs === null ? null : iso(fromMs),
    to: toMs === null ? null : iso(toMs),
    prop: { from: prop(fromMs), to: prop(toMs) },
    string: fromMs === null ? null : `${text(fromMs)} to ${toMs === null ? '?' : text(toMs)}`,
  };
}
const sfwClassOf = (e) => {
  if (e.rating === 'R+ - Mild Nudity' || e.rating === 'Rx - Hentai') return 2;
  const ids = [...e.genres, ...e.explicit_genres, ...e.themes, ...e.demographics].map((g) => g.mal_id);
  if (ids.includes(12) || ids.includes(49)) return 2;
  return ids.includes(9) ? 1 : 0;
};

// Generated records get ids in blocks far above the real MAL ids of the same kind, so that they
// can never be mistaken for (or collide with) a real entry.
/**
 * Where every generated record's links point: the same paths as MyAnimeList's, under a host that
 * can never resolve (`.invalid` is reserved by RFC 2606, section 2), so that a generated review,
 * user, person or news item never leads to an unrelated real page. Real records keep their real URLs.
 */
const SITE = 'https://generated.invalid';
const GEN_MANGA_ID = 900_001;
const GEN_CHARACTER_ID = 700_001;
const GEN_PERSON_ID = 800_001;

const FAMILY = ['Satou', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Itou', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Katou', 'Yoshida', 'Yamada', 'Sasaki', 'Yamaguchi', 'Matsumoto', 'Inoue', 'Kimura', 'Hayashi', 'Shimizu', 'Yamazaki', 'Mori', 'Abe', 'Ikeda', 'Hashimoto', 'Ishikawa', 'Ogawa', 'Fujita', 'Okada', 'Gotou', 'Hasegawa', 'Murakami', 'Kondou', 'Ishii', 'Saitou', 'Sakamoto', 'Endou', 'Aoki', 'Fujii', 'Nishimura', 'Fukuda'];
const GIVEN = ['Haruto', 'Yuuto', 'Souta', 'Yuuki', 'Hayato', 'Haruki', 'Ryuusei', 'Kouki', 'Sora', 'Sousuke', 'Riku', 'Kaito', 'Ren', 'Takumi', 'Daiki', 'Kenta', 'Shou', 'Naoki', 'Hiroshi', 'Akira', 'Yui', 'Hina', 'Sakura', 'Mio', 'Rin', 'Aoi', 'Yuna', 'Miyu', 'Kaede', 'Nanami', 'Haruka', 'Ayaka', 'Misaki', 'Saki', 'Natsuki', 'Emi', 'Kana', 'Mai', 'Ami', 'Chihiro', 'Kyouko', 'Tomoya', 'Makoto', 'Kaoru', 'Hikaru', 'Izumi', 'Tsubasa', 'Jun', 'Shinji', 'Rei'];
const EN_FAMILY = ['Miller', 'Bennett', 'Harper', 'Reyes', 'Collins', 'Foster', 'Hayes', 'Morgan', 'Parker', 'Quinn', 'Sullivan', 'Turner'];
const EN_GIVEN = ['Alex', 'Jamie', 'Morgan', 'Casey', 'Taylor', 'Jordan', 'Riley', 'Sam', 'Robin', 'Avery', 'Dana', 'Kim'];
/** The mark every generated name and text carries, so that a reader of one response can tell. */
const GENERATED = '(generated)';
const USERS = ['quietlantern', 'mochi_rain', 'north_tram', 'paperkite', 'saltandsoba', 'tidepool88', 'velvet_owl', 'kilnfire', 'lumen_ink', 'orbit_sable', 'cedarwake', 'gingko_walk', 'hollowreed', 'marble_fox', 'nightferry', 'plum_signal'];
const user = (name) => ({
  username: name,
  url: `${SITE}/profile/${name}`,
  images: { jpg: { image_url: null }, webp: { image_url: null } },
});
const userById = (name) => ({ url: `${SITE}/profile/${name}`, username: name });

// ---------------------------------------------------------------------------------------------
// Genres (real ids, mal-genres.json)

const genres = [
  ...genreFile.anime.map((g) => ({ kind: 'anime', category: g.category, mal_id: g.mal_id, name: g.name, url: g.url })),
  ...genreFile.manga.map((g) => ({ kind: 'manga', category: g.category, mal_id: g.mal_id, name: g.name, url: g.url })),
];
const mangaGenreByName = new Map(genreFile.manga.map((g) => [g.name, g]));
const toMangaRef = (ref) => {
  const g = mangaGenreByName.get(ref.name);
  return g ? { mal_id: g.mal_id, type: 'manga', name: g.name, url: g.url } : undefined;
};

// ---------------------------------------------------------------------------------------------
// Manga: the real sample records (facts only: MAL's synopsis and background are dropped), plus a
// generated source work for a choice of manga- and novel-based anime.

const manga = [];
const people = new Map();
const magazines = new Map();
const mangaStaff = [];
const relations = [];
const adaptation = new Map(); // anime id → manga id

for (const m of sampleManga) {
  manga.push({ ...m, synopsis: null, background: null, authors: m.authors, serializations: m.serializations });
  for (const s of m.serializations) magazines.set(s.mal_id, { mal_id: s.mal_id, name: s.name, url: s.url });
  for (const a of m.authors) {
    if (!people.has(a.mal_id)) {
      const [family, given] = a.name.split(', ');
      people.set(a.mal_id, personRecord(a.mal_id, a.name, given ?? null, family ?? null, a.url, 'author'));
    }
    mangaStaff.push({ manga_id: m.mal_id, person_id: a.mal_id, position: 'Story & Art' });
  }
}
// Real manga ↔ anime adaptations, matched by title (checked by hand against the demo anime).
const REAL_ADAPTATIONS = [
  [11, 20],
  [12, 269],
  [1, 19],
  [25, 121],
  [28, 877],
  [44347, 30276],
  [116778, 44511],
  [26, 136],
  [26, 11061],
  [24294, 21995],
];
for (const [mangaId, animeId] of REAL_ADAPTATIONS) {
  if (!animeById.has(animeId)) continue;
  adaptation.set(animeId, mangaId);
}

function personRecord(id, name, given, family, url, role) {
  const r = rng(`person:${id}`);
  const year = role === 'author' ? r.int(1950, 1990) : r.int(1965, 2000);
  return {
    mal_id: id,
    url,
    website_url: null,
    images: ONE_IMAGE_NULL(),
    name,
    given_name: given,
    family_name: family,
    alternate_names: [],
    birthday: iso(Date.UTC(year, r.int(0, 11), r.int(1, 28))),
    favorites: r.int(0, 25_000),
    about: null,
  };
}

let nextPerson = GEN_PERSON_ID;
function newPerson(section, english = false) {
  const r = rng(`newperson:${section}:${nextPerson}`);
  const family = english ? r.pick(EN_FAMILY) : r.pick(FAMILY);
  const given = english ? r.pick(EN_GIVEN) : r.pick(GIVEN);
  const id = nextPerson++;
  const name = `${family}, ${given} ${GENERATED}`;
  const p = personRecord(id, name, given, family, `${SITE}/people/${id}/${slug(`${given} ${family}`)}`, section);
  p.about = 'A generated person of the catalogue-api demo dataset, not a real MyAnimeList record.';
  people.set(id, p);
  return p;
}

const magazinePool = [...magazines.values()];
const SOURCE_TYPES = { Manga: 'Manga', 'Web manga': 'Manga', '4-koma manga': 'Manga', 'Light novel': 'Light Novel', Novel: 'Novel' };
// Every anime with an explicit genre or an adult rating that is based on a written work gets a
// source work (they are the SFW targets), then the most popular others, up to the cap.
const GEN_MANGA_CAP = 50;
const candidates = anime
  .filter((a) => SOURCE_TYPES[a.source] && !adaptation.has(a.mal_id))
  
  .sort((x, y) => sfwClassOf(y) - sfwClassOf(x) || (x.popularity ?? 1e9) - (y.popularity ?? 1e9) || x.mal_id - y.mal_id);
const seenTitles = new Set(manga.map((m) => m.title.toLowerCase()));
let nextManga = GEN_MANGA_ID;
for (const a of candidates) {
  if (nextManga - GEN_MANGA_ID >= GEN_MANGA_CAP) break;
  if (adaptation.has(a.mal_id)) continue;
  // One source work per franchise: "Love Hina Again" shares the source of "Love Hina".
  const base = a.title.split(/[:(]/)[0].trim().toLowerCase();
  if (seenTitles.has(base)) continue;
  seenTitles.add(base);
  const r = rng(`manga:${a.mal_id}`);
  const id = nextManga++;
  const type = SOURCE_TYPES[a.source];
  const airedFrom = a.aired.from ? Date.parse(a.aired.from) : Date.UTC(2015, 0, 1);
  const from = airedFrom - r.int(2, 8) * 365 * DAY;
  const publishing = a.airing || (a.status !== 'Finished Airing' && r.chance(0.7));
  const to = publishing ? null : from + r.int(2, 12) * 365 * DAY;
  const volumes = publishing ? null : r.int(2, 30);
  const chapters = publishing ? null : type === 'Manga' ? volumes * r.int(6, 10) : volumes * r.int(3, 6);
  const author = newPerson('author');
  const serial = type === 'Manga' ? [r.pick(magazinePool)] : [];
  const score = a.score === null ? null : Math.round(Math.min(9.3, Math.max(5, a.score + (r.next() - 0.4) * 0.8)) * 100) / 100;
  const title = a.title.split(/ \(TV\)$/)[0];
  const m = {
    mal_id: id,
    url: `${SITE}/manga/${id}/${slug(title)}`,
    images: nullImages(),
    approved: true,
    titles: [{ type: 'Default', title }, ...(a.title_japanese ? [{ type: 'Japanese', title: a.title_japanese }] : []), ...(a.title_english ? [{ type: 'English', title: a.title_english }] : [])],
    title,
    title_english: a.title_english,
    title_japanese: a.title_japanese,
    title_synonyms: [],
    type,
    chapters,
    volumes,
    status: publishing ? 'Publishing' : 'Finished',
    publishing,
    published: dateRange(from, to),
    score,
    scored: score,
    scored_by: score === null ? null : r.int(500, 150_000),
    rank: null,
    popularity: null,
    // Fewer members than the real manga here, so that the most popular manga of the demo are real.
    members: Math.round(r.int(1_000, 300_000) / 3),
    favorites: r.int(0, 8_000),
    synopsis: `A generated demo record (not MyAnimeList data): a ${type.toLowerCase()} by ${author.given_name} ${author.family_name}, the source of the ${a.type} anime "${a.title}".`,
    background: null,
    authors: [{ mal_id: author.mal_id, type: 'people', name: author.name, url: author.url }],
    serializations: serial.map((s) => ({ mal_id: s.mal_id, type: 'manga', name: s.name, url: s.url })),
    genres: a.genres.map(toMangaRef).filter(Boolean),
    explicit_genres: a.explicit_genres.map(toMangaRef).filter(Boolean),
    themes: a.themes.map(toMangaRef).filter(Boolean),
    demographics: a.demographics.map(toMangaRef).filter(Boolean),
  };
  manga.push(m);
  mangaStaff.push({ manga_id: id, person_id: author.mal_id, position: 'Story & Art' });
  adaptation.set(a.mal_id, id);
  // The franchise's other anime adapt the same work.
  for (const other of anime) {
    if (other.mal_id !== a.mal_id && other.title.toLowerCase().startsWith(base) && !adaptation.has(other.mal_id)) adaptation.set(other.mal_id, id);
  }
}
// Rank and popularity by score and members (MAL's definitions): the real manga keep their MAL
// values where those fit, the generated ones get a place among them (scripts/lib/media-ranks.mjs).
assignMediaRanks(manga, { anchor: (m, field) => (m.mal_id < GEN_MANGA_ID ? m[field] : null) });
checkMediaRanks('demo manga', manga);
manga.sort((x, y) => x.mal_id - y.mal_id);
const mangaById = new Map(manga.map((m) => [m.mal_id, m]));
for (const [animeId, mangaId] of [...adaptation].sort((x, y) => x[0] - y[0])) {
  relations.push({ from_type: 'anime', from_id: animeId, relation: 'Adaptation', to_type: 'manga', to_id: mangaId });
  relations.push({ from_type: 'manga', from_id: mangaId, relation: 'Adaptation', to_type: 'anime', to_id: animeId });
}

// Anime franchises: entries whose titles share the part before ":" / " (" / " Again" are related;
// within a franchise, TV entries chain as Prequel/Sequel and the rest are Side Story/Parent Story.
{
  const groups = new Map();
  for (const a of anime) {
    const base = a.title.split(/[:(]| Again$| 2nd Season| Season \d/)[0].trim().toLowerCase();
    if (base.length < 4) continue;
    if (!groups.has(base)) groups.set(base, []);
    groups.get(base).push(a);
  }
  for (const list of [...groups.values()].filter((l) => l.length > 1)) {
    list.sort((x, y) => (x.aired.from ?? '9999').localeCompare(y.aired.from ?? '9999') || x.mal_id - y.mal_id);
    const main = list.filter((a) => a.type === 'TV');
    const parent = main[0] ?? list[0];
    for (let i = 1; i < main.length; i++) {
      relations.push({ from_type: 'anime', from_id: main[i - 1].mal_id, relation: 'Sequel', to_type: 'anime', to_id: main[i].mal_id });
      relations.push({ from_type: 'anime', from_id: main[i].mal_id, relation: 'Prequel', to_type: 'anime', to_id: main[i - 1].mal_id });
    }
    for (const a of list) {
      if (a.type === 'TV' || a === parent) continue;
      relations.push({ from_type: 'anime', from_id: a.mal_id, relation: 'Parent Story', to_type: 'anime', to_id: parent.mal_id });
      relations.push({ from_type: 'anime', from_id: parent.mal_id, relation: 'Side Story', to_type: 'anime', to_id: a.mal_id });
    }
  }
}
const magazineCount = new Map();
for (const m of manga) for (const s of m.serializations) magazineCount.set(s.mal_id, (magazineCount.get(s.mal_id) ?? 0) + 1);
const magazineList = [...magazines.values()].sort((x, y) => x.mal_id - y.mal_id).map((m) => ({ ...m, count: magazineCount.get(m.mal_id) ?? 0 }));

// ---------------------------------------------------------------------------------------------
// Producers: every producer, licensor and studio the anime reference (ids assigned by build.mjs).

const producerCount = new Map();
const producerRefs = new Map();
for (const a of anime) {
  for (const ref of new Map([...a.producers, ...a.licensors, ...a.studios].map((p) => [p.mal_id, p])).values()) {
    producerRefs.set(ref.mal_id, ref);
    producerCount.set(ref.mal_id, (producerCount.get(ref.mal_id) ?? 0) + 1);
  }
}
const producers = [...producerRefs.values()]
  .sort((x, y) => x.mal_id - y.mal_id)
  .map((ref) => {
    const r = rng(`producer:${ref.mal_id}`);
    return {
      mal_id: ref.mal_id,
      url: ref.url,
      titles: [{ type: 'Default', title: ref.name }],
      images: ONE_IMAGE_NULL(),
      favorites: r.int(0, 5_000),
      established: r.chance(0.7) ? iso(Date.UTC(r.int(1950, 2018), r.int(0, 11), r.int(1, 28))) : null,
      about: null,
      count: producerCount.get(ref.mal_id),
    };
  });

// ---------------------------------------------------------------------------------------------
// Characters, voice actors and staff. Real character names (Jikan samples) go to Naruto, where
// they belong; other casts are generated for the most popular anime and every SFW target.

const characters = new Map();
const animeCharacters = [];
const mangaCharacters = [];
const animeStaff = [];
const pictures = [];
const charImages = (c) => {
  const jpg = c.images?.jpg?.image_url ?? null;
  return {
    jpg: { image_url: jpg, small_image_url: jpg ? jpg.replace(/\.jpg$/, 't.jpg') : null },
    webp: { image_url: c.images?.webp?.image_url ?? null, small_image_url: c.images?.webp?.small_image_url ?? null },
  };
};
for (const c of sampleCharacters) {
  if (characters.has(c.mal_id)) continue;
  characters.set(c.mal_id, {
    mal_id: c.mal_id,
    url: c.url,
    images: charImages(c),
    name: c.name,
    name_kanji: c.name_kanji ?? null,
    nicknames: c.nicknames ?? [],
    favorites: c.favorites ?? 0,
    about: null,
  });
}

const jpVoices = Array.from({ length: 120 }, () => newPerson('voice'));
const enVoices = Array.from({ length: 30 }, () => newPerson('voice-en', true));
const staffPool = Array.from({ length: 60 }, () => newPerson('staff'));
let nextCharacter = GEN_CHARACTER_ID;
const GENERATED_CHARACTER = 'A generated character of the catalogue-api demo dataset, not a real MyAnimeList record.';

// The entries a newcomer opens first: the most popular anime and manga (by members, approved).
const mostPopular = (list, n) => list.filter((e) => e.approved).sort((x, y) => y.members - x.members || x.mal_id - y.mal_id).slice(0, n).map((e) => e.mal_id);
// Also the most popular recent ones (begun in the three years before BASE_DATE), which a newcomer
// tries first too (e.g. Sousou no Frieren).
const RECENT = iso(BASE_DATE - 3 * 365 * DAY);
const POPULAR_ANIME = new Set([...mostPopular(anime, 25), ...mostPopular(anime.filter((a) => a.aired.from !== null && a.aired.from >= RECENT), 10)]);
const castAnime = anime
  .filter((a) => sfwClassOf(a) > 0 || adaptation.has(a.mal_id) || (a.popularity ?? 1e9) <= 200 || POPULAR_ANIME.has(a.mal_id))
  .map((a) => a.mal_id)
  .sort((x, y) => x - y);
// A voice actor heard in both a safe and an adult anime, so that voice-role SFW has a target.
const SHARED_VOICE = jpVoices[0];

/**
 * A generated character with no picture: a name drawn from the lists, a nickname with the given
 * chance (none drawn at 0), favorites up to `maxFavorites`; `r` is drawn from in that order.
 */
function generatedCharacter(id, r, nicknameChance, maxFavorites) {
  const given = r.pick(GIVEN);
  const family = r.pick(FAMILY);
  return {
    mal_id: id,
    url: `${SITE}/character/${id}/${slug(`${given} ${family}`)}`,
    images: { jpg: { image_url: null, small_image_url: null }, webp: { image_url: null, small_image_url: null } },
    name: `${given} ${family} ${GENERATED}`,
    name_kanji: null,
    nicknames: nicknameChance > 0 && r.chance(nicknameChance) ? [given.slice(0, 3) + '-chan'] : [],
    favorites: r.int(0, maxFavorites),
    about: GENERATED_CHARACTER,
  };
}
function castFor(a) {
  const r = rng(`cast:${a.mal_id}`);
  const rows = [];
  if (a.mal_id === 20) {
    // Naruto: the real characters of the samples (names and favorites are MAL facts).
    const naruto = [17, 13, 85, 14, 1662, 1694, 2792, 2910];
    naruto.forEach((id, i) => rows.push({ id, role: i < 3 ? 'Main' : 'Supporting' }));
  } else {
    const n = r.int(3, 6);
    for (let i = 0; i < n; i++) {
      const id = nextCharacter++;
      characters.set(id, generatedCharacter(id, r, 0.2, 4_000));
      rows.push({ id, role: i < 2 ? 'Main' : 'Supporting' });
    }
  }
  // Sequels and side stories reuse the cast of the first entry of their adaptation family.
  return rows.map(({ id, role }, i) => {
    const va = [{ person_id: (i === 0 && (a.mal_id === 20 || sfwClassOf(a) === 2) ? SHARED_VOICE : r.pick(jpVoices)).mal_id, language: 'Japanese' }];
    if (r.chance(0.4)) va.push({ person_id: r.pick(enVoices).mal_id, language: 'English' });
    return { anime_id: a.mal_id, character_id: id, role, voice_actors: va };
  });
}

const castByManga = new Map();
for (const id of castAnime) {
  const a = animeById.get(id);
  const mangaId = adaptation.get(id);
  // Entries adapting the same work share one cast (the first one built).
  const shared = mangaId !== undefined ? castByManga.get(mangaId) : undefined;
  const rows = shared ? shared.map((row) => ({ ...row, anime_id: id })) : castFor(a);
  if (mangaId !== undefined && !shared) castByManga.set(mangaId, rows);
  animeCharacters.push(...rows);
  const r = rng(`staff:${id}`);
  const positions = [['Director', 'Storyboard'], ['Music'], ['Character Design'], ['Series Composition']];
  for (const pos of r.sample(positions, r.int(2, 4))) animeStaff.push({ anime_id: id, person_id: r.pick(staffPool).mal_id, positions: pos });
  if (mangaId !== undefined) {
    const author = mangaStaff.find((s) => s.manga_id === mangaId);
    if (author && !animeStaff.some((s) => s.anime_id === id && s.person_id === author.person_id)) {
      animeStaff.push({ anime_id: id, person_id: author.person_id, positions: ['Original Creator'] });
    }
  }
}
for (const [mangaId, rows] of [...castByManga].sort((x, y) => x[0] - y[0])) {
  for (const row of rows) mangaCharacters.push({ manga_id: mangaId, character_id: row.character_id, role: row.role });
}
// Real manga without an anime here get a small generated cast of their own.
for (const m of manga.filter((x) => x.mal_id < GEN_MANGA_ID && !castByManga.has(x.mal_id))) {
  const r = rng(`mangacast:${m.mal_id}`);
  for (let i = 0; i < 2; i++) {
    const id = nextCharacter++;
    characters.set(id, generatedCharacter(id, r, 0, 2_000));
    mangaCharacters.push({ manga_id: m.mal_id, character_id: id, role: i === 0 ? 'Main' : 'Supporting' });
  }
}
// Characters without a picture keep none; the real ones show their one real picture.
for (const c of characters.values()) {
  if (c.images.jpg.image_url) {
    pictures.push({
      type: 'character',
      mal_id: c.mal_id,
      pictures: [{ jpg: { image_url: c.images.jpg.image_url, small_image_url: c.images.jpg.small_image_url, large_image_url: null }, webp: { image_url: c.images.webp.image_url, small_image_url: c.images.webp.small_image_url, large_image_url: null } }],
    });
  }
}

// People have no image in any source here. The most favorited get one picture: MAL's own
// placeholder image, as a \`/s/\` path that the API resolves against its image host (spec, v1 changes).
for (const p of [...people.values()].sort((x, y) => y.favorites - x.favorites || x.mal_id - y.mal_id).slice(0, 40)) {
  const url = '/s/common/uploaded_files/questionmark_23.gif';
  pictures.push({
    type: 'person',
    mal_id: p.mal_id,
    pictures: [{ jpg: { image_url: url, small_image_url: null, large_image_url: null }, webp: { image_url: null, small_image_url: null, large_image_url: null } }],
  });
}

// ---------------------------------------------------------------------------------------------
// Per-anime sub-resources: episodes, videos, forum threads, themes, statistics, moreinfo,
// pictures, external and streaming links.

const episodes = [];
const videos = [];
const forum = [];
const themes = [];
const animeStatistics = [];
const mangaStatistics = [];
const moreinfo = [];
const external = [];
const streaming = [];

const bangumiByMal = new Map();
for (const item of bangumi.items) {
  const mal = item.sites.find((s) => s.site === 'mal');
  if (mal) bangumiByMal.set(Number(mal.id), item);
}
const armByMal = new Map(arm.filter((x) => x.mal_id).map((x) => [x.mal_id, x]));
const siteUrl = (site, id) => bangumi.siteMeta[site]?.urlTemplate.replace('{{id}}', id);

function statsFor(r, members, score, kind) {
  const total = members ?? r.int(100, 5000);
  const completed = Math.round(total * (0.4 + r.next() * 0.3));
  const current = Math.round(total * (0.05 + r.next() * 0.1));
  const onHold = Math.round(total * 0.03);
  const dropped = Math.round(total * 0.04);
  const planned = Math.max(0, total - completed - current - onHold - dropped);
  const centre = score ?? 7;
  const weights = Array.from({ length: 10 }, (_, i) => Math.exp(-((i + 1 - centre) ** 2) / 2));
  const sum = weights.reduce((x, y) => x + y, 0);
  const voters = Math.round(total * 0.6);
  const scores = weights.map((w, i) => ({ score: i + 1, votes: Math.round((voters * w) / sum), percentage: Math.round((w / sum) * 1000) / 10 }));
  return kind === 'anime'
    ? { watching: current, completed, on_hold: onHold, dropped, plan_to_watch: planned, total, scores }
    : { reading: current, completed, on_hold: onHold, dropped, plan_to_read: planned, total, scores };
}

const durationSeconds = (text) => {
  if (!text) return null;
  const h = /(\d+) hr/.exec(text);
  const m = /(\d+) min/.exec(text);
  const s = (h ? Number(h[1]) * 3600 : 0) + (m ? Number(m[1]) * 60 : 0);
  return s || null;
};

for (const a of anime) {
  const r = rng(`anime-sub:${a.mal_id}`);
  animeStatistics.push({ anime_id: a.mal_id, ...statsFor(r, a.members, a.score, 'anime') });
  if (a.images.jpg.image_url) pictures.push({ type: 'anime', mal_id: a.mal_id, pictures: [a.images] });

  const links = [];
  const bg = bangumiByMal.get(a.mal_id);
  if (bg?.officialSite) links.push({ name: 'Official Site', url: bg.officialSite });
  for (const s of bg?.sites ?? []) {
    const meta = bangumi.siteMeta[s.site];
    if (meta?.type === 'info' && s.site !== 'mal') links.push({ name: meta.title, url: siteUrl(s.site, s.id) });
  }
  const armEntry = armByMal.get(a.mal_id);
  if (armEntry?.anilist_id && !links.some((l) => l.name === 'AniList')) links.push({ name: 'AniList', url: `https://anilist.co/anime/${armEntry.anilist_id}` });
  if (armEntry?.annict_id) links.push({ name: 'Annict', url: `https://annict.com/works/${armEntry.annict_id}` });
  if (links.length) external.push({ type: 'anime', mal_id: a.mal_id, links });
  const onair = (bg?.sites ?? []).filter((s) => bangumi.siteMeta[s.site]?.type === 'onair').map((s) => ({ name: bangumi.siteMeta[s.site].title, url: siteUrl(s.site, s.id) }));
  if (onair.length) streaming.push({ anime_id: a.mal_id, links: onair });
}

for (const id of castAnime) {
  const a = animeById.get(id);
  const r = rng(`episodes:${id}`);
  // Every episode the record counts, so that `episodes` and the episode list agree.
  const count = a.episodes === null ? (a.airing ? r.int(3, 10) : 0) : a.episodes;
  const start = a.aired.from ? Date.parse(a.aired.from) : null;
  const seconds = durationSeconds(a.duration);
  const baseUrl = `${a.url}/episode`;
  for (let n = 1; n <= count; n++) {
    const withCover = r.chance(0.3);
    episodes.push({
      mal_id: n,
      url: `${baseUrl}/${n}`,
      title: `Episode ${n}`,
      title_japanese: null,
      title_romanji: null,
      aired: start === null ? null : iso(start + (n - 1) * 7 * DAY),
      score: Math.round((4 + r.next()) * 100) / 100,
      filler: r.chance(0.05),
      recap: r.chance(0.03),
      forum_url: `${SITE}/forum/?topicid=${hash(`topic:${id}:${n}`) % 2_000_000}`,
      synopsis: `Episode ${n} of ${a.title}. (Generated demo episode.)`,
      replies: r.int(0, 900),
      images: { jpg: { image_url: withCover ? `${SITE}/images/episodes/${hash(`cover:${id}:${n}`).toString(16)}_thumb.jpg` : null } },
      anime_id: id,
      duration: seconds,
    });
  }
  const shown = Math.min(count, 3);
  const trailer = a.trailer;
  const vr = rng(`videos:${id}`);
  videos.push({
    anime_id: id,
    promo: trailer.youtube_id ? [{ title: 'PV 1', trailer }] : [],
    episodes: Array.from({ length: shown }, (_, i) => shown - i).map((n) => ({
      mal_id: n,
      url: `${baseUrl}/${n}`,
      title: `Episode ${n}`,
      episode: `Episode ${n}`,
      images: { jpg: { image_url: null } },
    })),
    music_videos: trailer.youtube_id && vr.chance(0.3)
      ? [{ title: `Opening Theme ${GENERATED}`, video: { ...trailer, title: `${a.title} Opening ${GENERATED}`, views: vr.int(1_000, 5_000_000) }, meta: { title: null, author: null } }]
      : [],
  });
  const lastEp = count;
  for (let n = Math.max(1, lastEp - 1); n <= lastEp; n++) {
    const fr = rng(`forum:${id}:${n}`);
    const date = start === null ? iso(BASE_DATE - fr.int(1, 400) * DAY) : iso(start + (n - 1) * 7 * DAY + 3_600_000);
    const who = fr.pick(USERS);
    const last = fr.pick(USERS);
    forum.push({
      mal_id: hash(`topic:${id}:${n}`) % 2_000_000,
      url: `${SITE}/forum/?topicid=${hash(`topic:${id}:${n}`) % 2_000_000}`,
      title: `${a.title} Episode ${n} Discussion`,
      date,
      author_username: who,
      author_url: `${SITE}/profile/${who}`,
      comments: fr.int(0, 900),
      last_comment: { url: `${SITE}/forum/?topicid=${hash(`topic:${id}:${n}`) % 2_000_000}&goto=lastpost`, author_username: last, author_url: `${SITE}/profile/${last}`, date },
      anime_id: id,
      episode: n,
    });
  }
  const tr = rng(`themes:${id}`);
  themes.push({
    anime_id: id,
    openings: [`1: "${tr.pick(['Blue', 'Horizon', 'Signal', 'Paper Moon', 'Afterglow', 'Tailwind'])} ${GENERATED}" by ${tr.pick(['Lumen', 'Kitefall', 'North Tram', 'Saltwater'])} (eps 1-${Math.max(1, Math.min(count, 13))})`],
    endings: [`1: "${tr.pick(['Lanterns', 'Quiet Rain', 'Tidepool', 'Small Hours'])} ${GENERATED}" by ${tr.pick(['Mochi', 'Cedar', 'Velvet Owl'])} (eps 1-${Math.max(1, Math.min(count, 13))})`],
  });
  if (tr.chance(0.5)) moreinfo.push({ type: 'anime', mal_id: id, moreinfo: `Demo note: ${count} episode records are included for this entry.` });
}
for (const m of manga) {
  const r = rng(`manga-sub:${m.mal_id}`);
  mangaStatistics.push({ manga_id: m.mal_id, ...statsFor(r, m.members, m.score, 'manga') });
  if (m.images.jpg.image_url) pictures.push({ type: 'manga', mal_id: m.mal_id, pictures: [m.images] });
  if (m.volumes !== null) moreinfo.push({ type: 'manga', mal_id: m.mal_id, moreinfo: `Collected in ${m.volumes} volumes.` });
  external.push({ type: 'manga', mal_id: m.mal_id, links: [{ name: 'Wikipedia', url: `https://en.wikipedia.org/wiki/Special:Search?search=${encodeURIComponent(m.title)}` }] });
}
for (const p of producers) {
  external.push({ type: 'producer', mal_id: p.mal_id, links: [{ name: 'Wikipedia', url: `https://en.wikipedia.org/wiki/Special:Search?search=${encodeURIComponent(p.titles[0].title)}` }] });
}

// ---------------------------------------------------------------------------------------------
// Community content (all generated): recommendations, reviews, news, articles, stacks.

// The SFW hub: a safe, popular anime whose community content also names adult entries, so that
// every SFW rule has a target. Targets: an Rx/Hentai, an Erotica, an R+ and an Ecchi anime.
const HUB = 20;
const pickFirst = (pred) => anime.find(pred)?.mal_id;
const RX =
  pickFirst((a) => a.rating === 'Rx - Hentai' && castAnime.includes(a.mal_id) && adaptation.has(a.mal_id)) ??
  pickFirst((a) => a.rating === 'Rx - Hentai' && castAnime.includes(a.mal_id));
const EROTICA = pickFirst((a) => a.explicit_genres.some((g) => g.mal_id === 49) && castAnime.includes(a.mal_id));
const RPLUS = pickFirst((a) => a.rating === 'R+ - Mild Nudity' && !a.explicit_genres.length && castAnime.includes(a.mal_id));
const ECCHI = pickFirst((a) => sfwClassOf(a) === 1 && castAnime.includes(a.mal_id) && adaptation.has(a.mal_id));
const ADULT = [RX, EROTICA, RPLUS].filter((x) => x !== undefined);

const recommendations = [];
{
  const r = rng('recommendations');
  const safePopular = anime.filter((a) => (a.popularity ?? 1e9) <= 1500 && sfwClassOf(a) === 0).map((a) => a.mal_id);
  const pairs = [];
  for (const target of [...ADULT, ECCHI]) pairs.push([HUB, target], [HUB, target]);
  for (let i = 0; i < 160; i++) {
    const [x, y] = r.sample(i % 5 === 0 ? anime.map((a) => a.mal_id) : safePopular, 2);
    pairs.push([x, y]);
  }
  // Repeats of a pair are separate users' recommendations; entry recommendations count them as votes.
  for (let i = 0; i < 40; i++) pairs.push(pairs[r.int(0, pairs.length - 1)]);
  pairs.forEach(([x, y], i) => {
    const who = USERS[i % USERS.length];
    const [lo, hi] = x < y ? [x, y] : [y, x];
    recommendations.push({
      type: 'anime',
      entry_ids: [lo, hi],
      content: `If you liked ${animeById.get(lo).title}, try ${animeById.get(hi).title}: a similar mood and pacing. (Generated demo recommendation.)`,
      date: iso(BASE_DATE - r.int(0, 700) * DAY),
      user: userById(who),
    });
  });
  const mangaIds = manga.map((m) => m.mal_id);
  for (let i = 0; i < 60; i++) {
    const [x, y] = r.sample(mangaIds, 2);
    const [lo, hi] = x < y ? [x, y] : [y, x];
    recommendations.push({
      type: 'manga',
      entry_ids: [lo, hi],
      content: `Readers of ${mangaById.get(lo).title} may enjoy ${mangaById.get(hi).title}. (Generated demo recommendation.)`,
      date: iso(BASE_DATE - r.int(0, 700) * DAY),
      user: userById(USERS[(i * 7) % USERS.length]),
    });
  }
}

/**
 * A review's reactions as Jikan v4 lists them: `overall` (their sum) first, then the seven counts,
 * drawn from `r` in this order. Both review writers below draw them right after the score, before
 * their other draws; the committed data depends on that order.
 */
function reviewReactions(r) {
  const reactions = { nice: r.int(0, 300), love_it: r.int(0, 80), funny: r.int(0, 40), confusing: r.int(0, 10), informative: r.int(0, 60), well_written: r.int(0, 120), creative: r.int(0, 30) };
  return { overall: Object.values(reactions).reduce((x, y) => x + y, 0), ...reactions };
}

/** The fields a review opens with: its entry, its id and its URL. */
const reviewHead = (type, entryId, malId) => ({ type, entry_id: entryId, mal_id: malId, url: `${SITE}/reviews.php?id=${malId}` });

const reviews = [];
{
  const r = rng('reviews');
  const TAGS = ['Recommended', 'Mixed Feelings', 'Not Recommended'];
  let id = 1;
  const reviewed = [...new Set([HUB, ...ADULT, ECCHI, ...r.sample(anime.map((a) => a.mal_id), 90)])].filter((x) => x !== undefined);
  const write = (type, entry, title) => {
    const score = r.int(3, 10);
    const reactions = reviewReactions(r);
    const reviewId = id++;
    const who = r.pick(USERS);
    reviews.push({
      ...reviewHead(type, entry, reviewId),
      reactions,
      date: iso(BASE_DATE - r.int(0, 1500) * DAY),
      review: `Generated demo review of ${title}: score ${score}/10. ${score >= 7 ? 'Strong characters and a steady pace.' : 'Uneven, with a few good moments.'}`,
      score,
      tags: [score >= 7 ? TAGS[0] : score >= 5 ? TAGS[1] : TAGS[2]],
      is_spoiler: r.chance(0.15),
      is_preliminary: r.chance(0.2),
      progress: r.int(1, 26),
      user: user(who),
    });
  };
  for (const entry of reviewed) for (let k = r.int(1, 3); k > 0; k--) write('anime', entry, animeById.get(entry).title);
  for (const m of r.sample(manga, 30)) for (let k = r.int(1, 2); k > 0; k--) write('manga', m.mal_id, m.title);
  for (const m of manga.filter((x) => sfwClassOf(x) > 0)) write('manga', m.mal_id, m.title);
}

const newsTags = [
  { mal_id: 1, name: 'New Anime', url: `${SITE}/news/tag/new_anime`, category: 'Anime' },
  { mal_id: 2, name: 'Trailers', url: `${SITE}/news/tag/trailers`, category: 'Anime' },
  { mal_id: 3, name: 'Streaming', url: `${SITE}/news/tag/streaming`, category: 'Anime' },
  { mal_id: 4, name: 'New Manga', url: `${SITE}/news/tag/new_manga`, category: 'Manga' },
  { mal_id: 5, name: 'Serialization', url: `${SITE}/news/tag/serialization`, category: 'Manga' },
  { mal_id: 6, name: 'Events', url: `${SITE}/news/tag/events`, category: 'Industry' },
  { mal_id: 7, name: 'Sales', url: `${SITE}/news/tag/sales`, category: 'Industry' },
  { mal_id: 8, name: 'Casting', url: `${SITE}/news/tag/casting`, category: 'People' },
];
const news = [];
{
  const r = rng('news');
  const HEADLINES = ['announces a new visual', 'reveals its cast', 'gets a stage event', 'tops the weekly chart', 'confirms streaming overseas', 'shares a second trailer'];
  for (let i = 0; i < 80; i++) {
    const id = 70_000 + i;
    const subject = i === 0 ? animeById.get(HUB) : r.pick(anime);
    const animeIds = i === 0 ? [HUB, ...ADULT, ...(ECCHI ? [ECCHI] : [])] : [subject.mal_id, ...(r.chance(0.3) ? [r.pick(anime).mal_id] : [])];
    const mangaIds = [...new Set(animeIds.map((x) => adaptation.get(x)).filter((x) => x !== undefined))];
    const who = r.pick(USERS);
    const headline = `${subject.title} ${r.pick(HEADLINES)}`;
    news.push({
      mal_id: id,
      url: `${SITE}/news/${id}`,
      title: i === 0 ? `Staff picks: ${animeIds.map((x) => animeById.get(x).title).join(', ')}` : headline,
      date: iso(BASE_DATE - i * 3 * DAY - r.int(0, 2) * DAY),
      author_username: who,
      author_url: `${SITE}/profile/${who}`,
      forum_url: `${SITE}/forum/?topicid=${3_000_000 + i}`,
      images: { jpg: { image_url: subject.images.jpg.image_url } },
      comments: r.int(0, 400),
      excerpt: `${headline}. (Generated demo news.)`,
      content: `${headline}. This item is generated demo content and does not report a real event.`,
      tag_ids: [...new Set([r.int(1, 8), r.int(1, 8)])].sort((x, y) => x - y),
      anime_ids: [...new Set(animeIds)],
      manga_ids: mangaIds,
    });
  }
}

// The first pages a newcomer opens: every one of the most popular anime and manga gets at least
// one recommendation, news item and review (all generated and labelled so, as above). Own seeded
// streams, so the sections above stay as they were.
const POPULAR_MANGA = new Set(mostPopular(manga, 10));
{
  const r = rng('popular');
  const kinds = [
    ['anime', [...POPULAR_ANIME], animeById],
    ['manga', [...POPULAR_MANGA], mangaById],
  ];
  let newsId = 70_000 + news.length;
  let reviewId = Math.max(...reviews.map((x) => x.mal_id)) + 1;
  for (const [type, ids, byId] of kinds) {
    for (const [i, id] of ids.entries()) {
      const entry = byId.get(id);
      const hasRec = recommendations.some((x) => x.type === type && x.entry_ids.includes(id));
      if (!hasRec) {
        const other = ids[(i + 1) % ids.length];
        const [lo, hi] = id < other ? [id, other] : [other, id];
        recommendations.push({
          type,
          entry_ids: [lo, hi],
          content: `If you liked ${byId.get(lo).title}, try ${byId.get(hi).title}. (Generated demo recommendation.)`,
          date: iso(BASE_DATE - r.int(0, 700) * DAY),
          user: userById(USERS[(i * 5) % USERS.length]),
        });
      }
      if (!news.some((n) => n[`${type}_ids`].includes(id))) {
        const who = r.pick(USERS);
        const headline = `${entry.title} ${r.pick(['gets a stage event', 'tops the weekly chart', 'confirms streaming overseas'])}`;
        const mal = newsId++;
        news.push({
          mal_id: mal,
          url: `${SITE}/news/${mal}`,
          title: headline,
          date: iso(BASE_DATE - r.int(0, 240) * DAY),
          author_username: who,
          author_url: `${SITE}/profile/${who}`,
          forum_url: `${SITE}/forum/?topicid=${3_000_000 + mal - 70_000}`,
          images: { jpg: { image_url: entry.images.jpg.image_url } },
          comments: r.int(0, 400),
          excerpt: `${headline}. (Generated demo news.)`,
          content: `${headline}. This item is generated demo content and does not report a real event.`,
          tag_ids: [type === 'anime' ? 1 : 4],
          anime_ids: type === 'anime' ? [id] : [],
          manga_ids: type === 'manga' ? [id] : [],
        });
      }
      // Entry review lists leave spoilers and preliminary reviews out unless asked (as Jikan).
      if (!reviews.some((x) => x.type === type && x.entry_id === id && !x.is_spoiler && !x.is_preliminary)) {
        const score = r.int(6, 10);
        const reactions = reviewReactions(r);
        const mal = reviewId++;
        reviews.push({
          ...reviewHead(type, id, mal),
          reactions,
          date: iso(BASE_DATE - r.int(0, 1500) * DAY),
          review: `Generated demo review of ${entry.title}: score ${score}/10. Strong characters and a steady pace.`,
          score,
          tags: [score >= 7 ? 'Recommended' : 'Mixed Feelings'],
          is_spoiler: false,
          is_preliminary: false,
          progress: r.int(1, 26),
          user: user(r.pick(USERS)),
        });
      }
    }
  }
}

const articleTags = [
  { mal_id: 1, name: 'Editorial', url: `${SITE}/featured/tag/editorial` },
  { mal_id: 2, name: 'Interview', url: `${SITE}/featured/tag/interview` },
  { mal_id: 3, name: 'Guide', url: `${SITE}/featured/tag/guide` },
  { mal_id: 4, name: 'Seasonal', url: `${SITE}/featured/tag/seasonal` },
];
const articles = [];
{
  const r = rng('articles');
  const characterIds = [...characters.keys()].sort((x, y) => x - y);
  const voiceIds = jpVoices.map((p) => p.mal_id);
  for (let i = 0; i < 30; i++) {
    const id = 2_000 + i;
    const subjects = i === 0 ? [HUB, ...ADULT] : r.sample(anime, 3).map((a) => a.mal_id);
    const who = r.pick(USERS);
    const title = i === 0 ? 'Where to start: a demo reading list' : `${r.pick(['Why', 'How', 'What'])} ${animeById.get(subjects[0]).title} ${r.pick(['still works', 'changed its genre', 'sounds the way it does'])}`;
    articles.push({
      mal_id: id,
      url: `${SITE}/featured/${id}`,
      title,
      date: iso(BASE_DATE - i * 9 * DAY),
      author_username: who,
      author_url: `${SITE}/profile/${who}`,
      images: { jpg: { image_url: animeById.get(subjects[0]).images.jpg.image_url } },
      excerpt: `${title}. (Generated demo article.)`,
      views: r.int(500, 90_000),
      comments: r.int(0, 120),
      content: `${title}. This article is generated demo content.`,
      tag_ids: [r.int(1, 4)],
      anime_ids: subjects,
      manga_ids: [...new Set(subjects.map((x) => adaptation.get(x)).filter((x) => x !== undefined))],
      character_ids: i === 0 ? [17, 13] : r.sample(characterIds, 1),
      person_ids: i === 0 ? [SHARED_VOICE.mal_id] : r.sample(voiceIds, 1),
    });
  }
}

const stacks = [];
{
  const r = rng('stacks');
  const NAMES = ['Comfort watches', 'Rainy day picks', 'Sharp dialogue', 'Long weekend marathon', 'Quiet finales', 'Sports and sweat', 'Found family', 'First anime for friends'];
  for (let i = 0; i < 24; i++) {
    const id = 500 + i;
    const mixed = i % 4 === 3;
    const entries =
      i === 0
        ? [HUB, ...ADULT, ...(ECCHI ? [ECCHI] : [])].map((x) => ({ type: 'anime', mal_id: x, comment: null }))
        : [
            ...r.sample(anime, r.int(4, 9)).map((a) => ({ type: 'anime', mal_id: a.mal_id, comment: r.chance(0.3) ? 'A personal favourite.' : null })),
            ...(mixed ? r.sample(manga, 2).map((m) => ({ type: 'manga', mal_id: m.mal_id, comment: null })) : []),
          ];
    if (i === 1) entries.splice(0, entries.length, ...r.sample(manga, 5).map((m) => ({ type: 'manga', mal_id: m.mal_id, comment: null })));
    const kinds = new Set(entries.map((e) => e.type));
    const who = r.pick(USERS);
    const title = i === 0 ? 'Demo stack: every rating' : `${NAMES[i % NAMES.length]} ${Math.floor(i / NAMES.length) + 1}`;
    stacks.push({
      mal_id: id,
      url: `${SITE}/stacks/${id}`,
      title,
      description: `${title}. A generated demo stack of ${entries.length} entries.`,
      type: kinds.size > 1 ? 'mixed' : [...kinds][0],
      user: userById(who),
      images: { jpg: { image_url: null } },
      restacks: r.int(0, 300),
      created_at: iso(BASE_DATE - r.int(0, 900) * DAY),
      entries,
    });
  }
}

// Update times (for `updated_at` filtering of the ids lists) and deleted ids.
const updates = [];
{
  const r = rng('updates');
  for (const a of anime) updates.push({ type: 'anime', mal_id: a.mal_id, updated_at: iso(BASE_DATE - r.int(0, 400) * DAY - r.int(0, 86_399) * 1000) });
  for (const m of manga) updates.push({ type: 'manga', mal_id: m.mal_id, updated_at: iso(BASE_DATE - r.int(0, 400) * DAY - r.int(0, 86_399) * 1000) });
}
const liveAnime = new Set(anime.map((a) => a.mal_id));
const deletedAnimeIds = dead.deadEntries.map(Number).filter((x) => !liveAnime.has(x)).sort((x, y) => x - y);
const deletedMangaIds = (() => {
  // No real list of deleted manga ids exists here: a generated one, in the generated id block.
  const r = rng('deleted-manga');
  const ids = new Set();
  while (ids.size < 25) ids.add(GEN_MANGA_ID + 5_000 + r.int(0, 20_000));
  return [...ids].sort((x, y) => x - y);
})();

// ---------------------------------------------------------------------------------------------
// Output

const byKey = (...keys) => (x, y) => {
  for (const k of keys) {
    const a = typeof k === 'function' ? k(x) : x[k];
    const b = typeof k === 'function' ? k(y) : y[k];
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
};
const files = {
  manga,
  characters: [...characters.values()].sort(byKey('mal_id')),
  people: [...people.values()].sort(byKey('mal_id')),
  producers,
  magazines: magazineList,
  genres,
  'anime-characters': animeCharacters,
  'manga-characters': mangaCharacters,
  'anime-staff': animeStaff,
  'manga-staff': mangaStaff,
  relations,
  external,
  streaming,
  themes,
  episodes,
  videos,
  pictures,
  'anime-statistics': animeStatistics,
  'manga-statistics': mangaStatistics,
  moreinfo,
  recommendations,
  reviews,
  news,
  'news-tags': newsTags,
  articles,
  'article-tags': articleTags,
  stacks,
  forum,
  updates,
  'deleted-anime-ids': deletedAnimeIds,
  'deleted-manga-ids': deletedMangaIds,
};
let bytes = 0;
// Link URLs are written with escaped slashes (`\/`, as Jikan's own JSON writes them; the same
// strings once parsed), so that the path part of a real official-site URL never reads as an
// absolute path of the machine that built the file to a check of the tree.
const ESCAPED_SLASHES = new Set(['external', 'streaming']);
for (const [name, value] of Object.entries(files)) {
  const json = JSON.stringify(value);
  const text = ESCAPED_SLASHES.has(name) ? json.replaceAll('/', '\\/') : json;
  bytes += text.length;
  fs.writeFileSync(path.join(outDir, `${name}.json`), `${text}\n`);
}

const targets = {
  hubAnime: HUB,
  rxAnime: RX,
  eroticaAnime: EROTICA,
  rPlusAnime: RPLUS,
  ecchiAnime: ECCHI,
  rxManga: RX !== undefined ? adaptation.get(RX) : undefined,
  ecchiManga: ECCHI !== undefined ? adaptation.get(ECCHI) : undefined,
  sharedVoiceActor: SHARED_VOICE.mal_id,
  hubNews: news[0].mal_id,
  hubArticle: articles[0].mal_id,
  hubStack: stacks[0].mal_id,
};
fs.writeFileSync(path.join(outDir, 'sfw-targets.json'), `${JSON.stringify(targets, null, 2)}\n`);

// NOTICE.md: this script owns the part between the catalogue markers.
const notice = `<!-- catalogue:start -->
## Catalogue collections (\`scripts/demo-data/build-catalogue.mjs\`, \`npm run build:catalogue-data\`)

Every file in \`data/\` other than \`anime.json\` is written by this script, deterministically (seed ${SEED}).

### Real facts used

| data | source | licence / terms |
|---|---|---|
| the ${sampleManga.length} manga with ids below ${GEN_MANGA_ID} (titles, type, chapters, volumes, status, dates, scores, ranks, members, genres, authors, serializations) and their authors' names and ids | Jikan v4 objects saved in GitHub \`poonsgollamudi/fave-manga-list\` @ \`dad33c4\`, \`src/data/mangalist.ts\` | no licence declared by that repository; **facts only** are used (MAL's synopsis and background text is dropped). "Data: MyAnimeList via Jikan". The shared data README marks these samples as fixtures; this use is limited to catalogue facts and should be re-checked before a public release. |
| names, kanji names, nicknames, favorites and image URLs of ${sampleCharacters.length - 1} Naruto characters (ids 13, 14, 17, 85, 1586, 1662, 1694, 2792, 2910, 47487) | Jikan v4 objects saved in GitHub \`g0sie/rs-react\` @ \`a02352a\` | as above: facts only, \`about\` is always null |
| external links (official sites, AniDB, TMDB, Bangumi, AniList) and streaming links of anime | npm \`bangumi-data@0.3.208\` | CC BY 4.0, "bangumi-data contributors"; links were selected and reshaped into \`{name, url}\` |
| AniList and Annict links | npm \`@kawaiioverflow/arm@0.225.0\` | MIT |
| \`deleted-anime-ids.json\` (${deletedAnimeIds.length} ids) | manami-project/anime-offline-database @ \`9b81441\`, \`dead-entries/myanimelist-minified.json\` | **ODbL 1.0 + DbCL 1.0**, "anime-offline-database by manami-project". This file stays under the ODbL; ids of the demo anime are removed from it. |
| genre, theme and demographic ids | \`mal-genres.json\` (Jikan, MIT / MyAnimeList) | as in the anime section |

### Generated (not MyAnimeList data)

Every generated record that a response shows next to a real entry says so in the record itself:
generated people and characters have \`${GENERATED}\` at the end of their \`name\` and an \`about\`
saying so, generated theme songs have it in the song title, generated manga say so in their
\`synopsis\`, and generated episodes, reviews, recommendations, news, articles and stacks in their text.

- **Manga with ids ${GEN_MANGA_ID} and up** (${manga.filter((m) => m.mal_id >= GEN_MANGA_ID).length} records): a source work invented for a manga- or novel-based demo anime; title and genres follow the anime, every number, date, author and magazine choice is generated. Their rank and popularity are placed among the real manga's by score and members (\`scripts/lib/media-ranks.mjs\`), so a top list numbers them where their score puts them.
- **People with ids ${GEN_PERSON_ID} and up**, and every person's birthday and favorites; all voice actors and staff.
- **Characters with ids ${GEN_CHARACTER_ID} and up**; all casts other than Naruto's (whose characters are real and whose voice actors are generated), all roles and voice assignments; every staff position.
- Episode lists: ${new Set(episodes.map((e) => e.anime_id)).size} anime have one, with as many episodes as their \`episodes\` count (a few airing anime with an unknown count list a few); the other anime have none.
- The 25 most popular anime, the 10 most popular anime begun since ${RECENT.slice(0, 10)} and the ${POPULAR_MANGA.size} most popular manga (by members) each have a cast, pictures, and at least one recommendation, news item and review.
- Relations between anime are inferred from shared title stems (Prequel/Sequel, Side Story/Parent Story); manga ↔ anime "Adaptation" links for the real manga were matched by title.
- Episodes (titles "Episode N", dates, scores, replies, synopsis lines, cover URLs), videos other than the anime's own trailer, episode forum threads, theme songs, moreinfo lines, statistics, pictures lists, producer favorites and founding dates, magazine counts.
- Person pictures: the ${40} most favorited people get one placeholder picture, stored as the \`/s/\` path \`/s/common/uploaded_files/questionmark_23.gif\` (the API resolves \`/s/\` paths against its image host).
- All users, reviews, recommendations, news, news tags, articles, article tags and stacks, and every \`updated_at\`.
- \`deleted-manga-ids.json\`: generated ids (no real list is available).

\`sfw-targets.json\` names the records that exercise the SFW rules (an Rx, Erotica, R+ and Ecchi anime linked from a safe hub anime's recommendations, news, articles, stacks and voice roles).
<!-- catalogue:end -->
`;
const noticePath = path.join(pkgDir, 'NOTICE.md');
const current = fs.existsSync(noticePath) ? fs.readFileSync(noticePath, 'utf8') : '';
const marker = /<!-- catalogue:start -->[\s\S]*<!-- catalogue:end -->\n?/;
fs.writeFileSync(noticePath, marker.test(current) ? current.replace(marker, notice) : `${current.trimEnd()}\n\n${notice}`);

console.log(`catalogue data: ${Object.entries(files).map(([k, v]) => `${k} ${v.length}`).join(', ')}; ${(bytes / 1e6).toFixed(2)} MB`);
console.log('sfw targets', targets);
