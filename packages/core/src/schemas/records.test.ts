/**
 * The input schemas take records with the fields Jikan v4 does not send left out, and output them
 * with `null` there, in the stored field order; the stored schemas still require every field.
 * Shapes are those of the Jikan v4 OpenAPI document (episodes list, videos); real anime, manga and
 * character records are imported from `test/fixtures/jikan-v4/` by the store-postgres tests.
 */
import { describe, expect, it } from 'vitest';
import { trailerSchema } from './common.js';
import { episodeSchema } from './episode.js';
import { episodeRecordInputSchema, episodeRecordSchema, trailerInputSchema, videosRecordInputSchema } from './records.js';

const trailer = {
  youtube_id: 'p5QfyY5lK1I',
  url: 'https://www.youtube.com/watch?v=p5QfyY5lK1I',
  embed_url: 'https://www.youtube.com/embed/p5QfyY5lK1I?enablejsapi=1&wmode=opaque&autoplay=1',
  images: {
    image_url: 'https://img.youtube.com/vi/p5QfyY5lK1I/default.jpg',
    small_image_url: 'https://img.youtube.com/vi/p5QfyY5lK1I/sddefault.jpg',
    medium_image_url: 'https://img.youtube.com/vi/p5QfyY5lK1I/mqdefault.jpg',
    large_image_url: 'https://img.youtube.com/vi/p5QfyY5lK1I/hqdefault.jpg',
    maximum_image_url: 'https://img.youtube.com/vi/p5QfyY5lK1I/maxresdefault.jpg',
  },
};
const v1Trailer = Object.fromEntries(
  ['title', 'views', 'likes', 'dislikes', 'comment_count', 'published_at', 'duration', 'privacy_status', 'region_restriction', 'embeddable'].map((k) => [k, null]),
);

/** An element of Jikan v4's `GET /anime/{id}/episodes`, with the anime's id. */
const episode = {
  anime_id: 1,
  mal_id: 1,
  url: 'https://myanimelist.net/anime/1/Cowboy_Bebop/episode/1',
  title: 'Asteroid Blues',
  title_japanese: 'アステロイド・ブルース',
  title_romanji: 'Asteroid Blues',
  aired: '1998-10-24T00:00:00+00:00',
  score: 4.5,
  filler: false,
  recap: false,
  forum_url: 'https://myanimelist.net/forum/?topicid=29264',
};

describe('input schemas', () => {
  it('fill the v1 trailer fields Jikan v4 does not send with null, after its own fields', () => {
    expect(trailerSchema.safeParse(trailer).success).toBe(false);
    const parsed = trailerInputSchema.parse(trailer);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify({ ...trailer, ...v1Trailer }));
    expect(trailerSchema.parse(parsed)).toEqual(parsed);
  });

  it('keep v1 trailer fields that are sent', () => {
    const full = { ...trailer, ...v1Trailer, title: 'PV', views: 10, embeddable: true, region_restriction: { allowed: ['JP'] } };
    expect(trailerInputSchema.parse(full)).toEqual(full);
  });

  it('take an episode as Jikan v4 lists it, storing null for duration, synopsis, replies and a cover image', () => {
    expect(episodeRecordSchema.safeParse(episode).success).toBe(false);
    const parsed = episodeRecordInputSchema.parse(episode);
    expect(parsed).toMatchObject({ duration: null, synopsis: null, replies: null, images: { jpg: { image_url: null } } });
    expect(Object.keys(parsed)).toEqual(Object.keys(episodeRecordSchema.shape));
    expect(episodeSchema.safeParse(parsed).success).toBe(true);
  });

  it('take the videos of an anime with Jikan v4 trailers in promos and music videos', () => {
    const videos = {
      anime_id: 1,
      promo: [{ title: 'PV 1', trailer }],
      episodes: [],
      music_videos: [{ title: 'Tank!', video: trailer, meta: { title: 'Tank!', author: 'The Seatbelts' } }],
    };
    const parsed = videosRecordInputSchema.parse(videos);
    expect(parsed.promo[0]!.trailer).toEqual({ ...trailer, ...v1Trailer });
    expect(parsed.music_videos[0]!.video).toEqual({ ...trailer, ...v1Trailer });
  });
});
