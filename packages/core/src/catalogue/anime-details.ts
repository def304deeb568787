/**
 * The sub-resources only anime have, over the seam: cast with voice actors, staff, episodes, forum
 * topics, videos, theme songs and streaming links.
 * @module
 */
import type { AnimeCharacter, AnimeStaff } from '../schemas/cast.js';
import type { Link } from '../schemas/common.js';
import type { Episode, EpisodeDetail } from '../schemas/episode.js';
import type { ForumTopic } from '../schemas/forum.js';
import type { AnimeThemes } from '../schemas/media.js';
import type { EpisodeRecord } from '../schemas/records.js';
import type { AnimeVideos } from '../schemas/video.js';
import type { Page, Paging } from './queries.js';
import type { CatalogueStore } from '../seam/types.js';
import { ALL, joined, ownedBy, ownedRows, slice, toCharacterMeta, toPersonMeta } from './shared.js';

/** An episode as the episode list shows it. */
function toEpisode(e: EpisodeRecord): Episode {
  return {
    mal_id: e.mal_id,
    url: e.url,
    title: e.title,
    title_japanese: e.title_japanese,
    title_romanji: e.title_romanji,
    aired: e.aired,
    score: e.score,
    filler: e.filler,
    recap: e.recap,
    forum_url: e.forum_url,
    synopsis: e.synopsis,
    replies: e.replies,
    images: e.images,
  };
}

/** One episode as its own endpoint shows it. */
function toEpisodeDetail(e: EpisodeRecord): EpisodeDetail {
  return {
    mal_id: e.mal_id,
    url: e.url ?? '',
    title: e.title,
    title_japanese: e.title_japanese,
    title_romanji: e.title_romanji,
    duration: e.duration,
    aired: e.aired,
    filler: e.filler,
    recap: e.recap,
    synopsis: e.synopsis,
    replies: e.replies,
    images: e.images,
  };
}

/**
 * An anime's characters with their voice actors: main roles first, then the most favourited (MAL's
 * order); characters and people not in the catalogue are left out.
 * @param records - The store.
 * @param id - The anime's id.
 */
export async function animeCastOf(records: CatalogueStore, id: number): Promise<AnimeCharacter[]> {
  const rows = await ownedRows(records, 'animeCharacters', 'anime', id);
  const characters = await records.getMany('characters', rows.map((r) => r.character_id));
  const personIds = [...new Set(rows.flatMap((r) => r.voice_actors.map((va) => va.person_id)))];
  const found = await records.getMany('people', personIds);
  const people = new Map(personIds.map((p, i) => [p, found[i]]));
  const out: AnimeCharacter[] = [];
  rows.forEach((row, i) => {
    const c = characters[i];
    if (!c) return;
    out.push({
      character: toCharacterMeta(c),
      role: row.role,
      favorites: c.favorites,
      voice_actors: row.voice_actors.flatMap((va) => {
        const p = people.get(va.person_id);
        return p ? [{ person: { ...toPersonMeta(p), favorites: p.favorites }, language: va.language }] : [];
      }),
    });
  });
  return out.sort((a, b) => Number(b.role === 'Main') - Number(a.role === 'Main') || b.favorites - a.favorites);
}

/**
 * An anime's staff and their positions (people not in the catalogue left out).
 * @param records - The store.
 * @param id - The anime's id.
 */
export async function animeStaffOf(records: CatalogueStore, id: number): Promise<AnimeStaff[]> {
  const rows = await joined(records, 'animeStaff', 'anime', id, 'people', (r) => r.person_id);
  return rows.map(([row, p]) => ({ person: toPersonMeta(p), positions: row.positions }));
}

/**
 * A page of an anime's episodes, by number.
 * @param records - The store.
 * @param id - The anime's id.
 * @param paging - The page.
 */
export async function episodesOf(records: CatalogueStore, id: number, paging: Paging): Promise<Page<Episode>> {
  const page = await records.query('episodes', { where: [ownedBy('anime', id)], orderBy: [{ field: 'mal_id', dir: 'asc' }], ...slice(paging) });
  return { data: page.data.map(toEpisode), total: page.total };
}

/**
 * One episode of an anime.
 * @param records - The store.
 * @param id - The anime's id.
 * @param episode - The episode's number.
 */
export async function episodeOf(records: CatalogueStore, id: number, episode: number): Promise<EpisodeDetail | undefined> {
  const e = await records.get('episodes', `${id}:${episode}`);
  return e && toEpisodeDetail(e);
}

/**
 * An anime's forum topics, newest first.
 * @param records - The store.
 * @param id - The anime's id.
 */
export async function forumOf(records: CatalogueStore, id: number): Promise<ForumTopic[]> {
  const orderBy = [
    { field: 'date', dir: 'desc' },
    { field: 'mal_id', dir: 'asc' },
  ] as const;
  const rows = (await records.query('forum', { where: [ownedBy('anime', id)], orderBy, ...ALL })).data;
  return rows.map((f) => ({
    mal_id: f.mal_id,
    url: f.url,
    title: f.title,
    date: f.date,
    author_username: f.author_username,
    author_url: f.author_url,
    comments: f.comments,
    last_comment: f.last_comment,
  }));
}

/**
 * An anime's videos: promos, episode videos and music videos (each empty when it has none).
 * @param records - The store.
 * @param id - The anime's id.
 */
export async function videosOf(records: CatalogueStore, id: number): Promise<AnimeVideos> {
  const v = await records.get('videos', id);
  return { promo: v?.promo ?? [], episodes: v?.episodes ?? [], music_videos: v?.music_videos ?? [] };
}

/**
 * An anime's opening and ending themes.
 * @param records - The store.
 * @param id - The anime's id.
 */
export async function themesOf(records: CatalogueStore, id: number): Promise<AnimeThemes> {
  const t = await records.get('themes', id);
  return t ? { openings: t.openings, endings: t.endings } : { openings: [], endings: [] };
}

/**
 * An anime's streaming links.
 * @param records - The store.
 * @param id - The anime's id.
 */
export async function streamingOf(records: CatalogueStore, id: number): Promise<Link[]> {
  return (await records.get('streaming', id))?.links ?? [];
}
