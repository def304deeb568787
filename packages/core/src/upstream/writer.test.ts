import { describe, expect, it } from 'vitest';
import { demoData } from '@catalogue-api/demo-data';
import { answersOf } from '@catalogue-api/testkit';
import { createMemoryStore } from '../seam/memory-store.js';
import type { CatalogueData } from '../catalogue/queries.js';
import type { Anime, AnimeFull } from '../schemas/anime.js';
import type { AnimeCharacter } from '../schemas/cast.js';
import type { EntryRecommendation, RecentRecommendation } from '../schemas/recommendation.js';
import type { CatalogueStore } from '../seam/types.js';
import { mapEntryPart, partsOf, PART_COLLECTIONS } from './mapping.js';
import { canonicalJson, createRecordWriter } from './writer.js';
import type { EntryPart, MediaKind } from './types.js';

const T0 = Date.UTC(2026, 10, 1, 12);
const T1 = T0 + 3_600_000;
const iso = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, '+00:00');

/**
 * What this library serves for a part, as an upstream that is this library would send it: the
 * part's request (reviews with the preliminary and spoiler ones, as the source asks them).
 */
async function served(store: CatalogueStore, kind: MediaKind, id: number, part: EntryPart): Promise<unknown> {
  return answersOf(store)(`/v1/${kind}/${id}/${part}${part === 'reviews' ? '?preliminary&spoilers' : ''}`);
}

const anime20 = demoData.anime!.find((a) => a.mal_id === 20)!;

describe('createRecordWriter', () => {
  it("writes nothing for this library's own answers: every part of anime and manga maps back to the records served", async () => {
    const store = createMemoryStore(demoData);
    const writer = createRecordWriter(store);
    const anime = [20, 1, 5, 21].filter((id) => demoData.anime!.some((a) => a.mal_id === id));
    const manga = demoData.manga!.slice(0, 4).map((m) => m.mal_id);
    for (const [kind, ids] of [
      ['anime', anime],
      ['manga', manga],
    ] as const) {
      for (const id of ids) {
        for (const part of partsOf(kind)) {
          const body = await served(store, kind, id, part);
          const outcome = await writer.part(kind, id, part, body, T0);
          expect(outcome, `${kind} ${id} ${part}`).toEqual({
            outcome: 'unchanged',
          });
        }
      }
    }
    expect(await store.get('updates', `anime:${anime[0]}`)).toEqual(demoData.updates!.find((u) => u.type === 'anime' && u.mal_id === anime[0]));
  });

  it('writes /full with its relations, theme, external and streaming parts, notes the change once, and a repeat changes nothing', async () => {
    const source = createMemoryStore(demoData);
    const body = (await served(source, 'anime', 20, 'full')) as {
      data: Record<string, unknown>;
    };
    // A store that holds the related entries, not anime 20 nor its parts.
    const data: CatalogueData = {
      ...demoData,
      anime: demoData.anime!.filter((a) => a.mal_id !== 20),
      relations: [],
      themes: [],
      external: [],
      streaming: [],
      moreinfo: [],
      updates: [],
    };
    const store = createMemoryStore(data);
    const writer = createRecordWriter(store);
    const first = await writer.part('anime', 20, 'full', body, T0);
    expect(first.outcome).toBe('changed');
    const full = (await answersOf(store)<AnimeFull>('/v1/anime/20/full'))!.data;
    expect(canonicalJson(full)).toBe(canonicalJson(body.data));
    expect(full.theme).toEqual(body.data.theme);
    expect(await store.get('updates', 'anime:20')).toEqual({
      type: 'anime',
      mal_id: 20,
      updated_at: iso(T0),
    });

    expect(await writer.part('anime', 20, 'full', body, T1)).toEqual({
      outcome: 'unchanged',
    });
    expect((await store.get('updates', 'anime:20'))!.updated_at).toBe(iso(T0));

    const renamed = { data: { ...body.data, title: 'Renamed', streaming: [] } };
    const second = await writer.part('anime', 20, 'full', renamed, T1);
    expect(second).toEqual({
      outcome: 'changed',
      keys: ['anime:20', 'streaming:20'],
    });
    expect((await store.get('anime', 20))!.title).toBe('Renamed');
    expect((await answersOf(store)('/v1/anime/20/streaming'))!.data).toEqual([]);
    expect((await store.get('updates', 'anime:20'))!.updated_at).toBe(iso(T1));
  });

  it('refuses an invalid body whole, naming the field, and writes nothing: a score outside 0–10, an error body served as 200', async () => {
    const store = createMemoryStore(demoData);
    const writer = createRecordWriter(store);
    const before = await store.get('anime', 20);
    const bad = await writer.part(
      'anime',
      20,
      'full',
      {
        data: {
          ...anime20,
          title: 'New',
          score: 11,
          relations: [],
          theme: { openings: [], endings: [] },
          external: [],
          streaming: [],
        },
      },
      T1,
    );
    expect(bad.outcome).toBe('invalid');
    expect(bad.outcome === 'invalid' && bad.reason).toMatch(/^anime\.0\.score: /);
    expect(await store.get('anime', 20)).toEqual(before);
    expect(await writer.part('anime', 20, 'full', { status: 500, type: 'InternalException', message: 'oops', error: 'x' }, T1)).toEqual({
      outcome: 'invalid',
      reason: expect.stringMatching(/^data: missing/) as unknown as string,
    });
    const cast = await writer.part('anime', 20, 'characters', { data: [{ character: 'x', role: 'Main', voice_actors: [] }] }, T1);
    expect(cast).toEqual({
      outcome: 'invalid',
      reason: 'data.0.character: expected an object, got the string "x"',
    });
    expect((await writer.part('manga', 2, 'staff', { data: [] }, T1)).outcome).toBe('invalid');
    expect(await writer.part('anime', 21, 'full', { data: anime20 }, T1)).toEqual({ outcome: 'invalid', reason: 'data.mal_id: 20, but the request was for anime 21' });
    expect(await store.get('updates', 'anime:20')).toEqual(demoData.updates!.find((u) => u.type === 'anime' && u.mal_id === 20));
  });

  it("replaces an entry's cast as a whole, adds characters and people it names only where the store has none", async () => {
    const store = createMemoryStore(demoData);
    const writer = createRecordWriter(store);
    const body = (await served(store, 'anime', 20, 'characters')) as {
      data: Array<Record<string, unknown>>;
    };
    expect(body.data.length).toBeGreaterThan(1);
    const kept = body.data.slice(1);
    const dropped = (body.data[0]!.character as { mal_id: number }).mal_id;
    const newcomer = {
      character: {
        mal_id: 999_001,
        url: 'https://example.invalid/character/999001',
        images: {
          jpg: { image_url: null },
          webp: { image_url: null, small_image_url: null },
        },
        name: 'New',
      },
      role: 'Supporting',
      favorites: 3,
      voice_actors: [
        {
          person: {
            mal_id: 999_002,
            url: 'https://example.invalid/people/999002',
            images: { jpg: { image_url: null } },
            name: 'Voice',
          },
          language: 'Japanese',
        },
      ],
    };
    // Renamed in the short reference: the full character record is not overwritten by it.
    const renamed = {
      ...kept[0]!,
      character: { ...(kept[0]!.character as object), name: 'Short name' },
    };
    const outcome = await writer.part('anime', 20, 'characters', { data: [renamed, ...kept.slice(1), newcomer] }, T1);
    expect(outcome.outcome).toBe('changed');
    const ids = (await answersOf(store)<AnimeCharacter[]>('/v1/anime/20/characters'))!.data.map((c) => c.character.mal_id);
    expect(ids).not.toContain(dropped);
    expect(ids).toContain(999_001);
    expect(await store.get('characters', dropped)).toBeDefined();
    expect((await store.get('characters', (renamed.character as unknown as { mal_id: number }).mal_id))!.name).not.toBe('Short name');
    expect(await store.get('characters', 999_001)).toMatchObject({
      name: 'New',
      favorites: 3,
      about: null,
      images: { jpg: { small_image_url: null } },
    });
    expect(await store.get('people', 999_002)).toMatchObject({
      name: 'Voice',
      favorites: 0,
    });
  });

  it('merges an episode page that is not the whole list, replaces a whole one, and keeps the fields a list does not carry', async () => {
    const episode = (n: number, title = `Episode ${n}`) => ({
      mal_id: n,
      url: null,
      title,
      title_japanese: null,
      title_romanji: null,
      aired: null,
      score: null,
      filler: false,
      recap: false,
      forum_url: null,
    });
    const store = createMemoryStore({ anime: [anime20] });
    const writer = createRecordWriter(store);
    await store.upsert('episodes', [
      {
        anime_id: 20,
        ...episode(1),
        synopsis: 'Kept',
        duration: 1400,
        replies: 3,
        images: { jpg: { image_url: null } },
      },
    ]);
    const paged = {
      pagination: { last_visible_page: 2, has_next_page: true },
      data: [episode(1, 'One'), episode(2)],
    };
    expect((await writer.part('anime', 20, 'episodes', paged, T0)).outcome).toBe('changed');
    expect(await store.get('episodes', '20:1')).toMatchObject({
      title: 'One',
      synopsis: 'Kept',
      duration: 1400,
      replies: 3,
    });
    const whole = {
      pagination: { last_visible_page: 1, has_next_page: false },
      data: [episode(2)],
    };
    expect(await writer.part('anime', 20, 'episodes', whole, T1)).toEqual({
      outcome: 'changed',
      keys: ['episodes:20:1'],
    });
    expect(await store.get('episodes', '20:1')).toBeUndefined();
  });

  it('stores the votes of recommendations beyond the users’ recommendations held, and counts them back as served', async () => {
    const store = createMemoryStore(demoData);
    const writer = createRecordWriter(store);
    const body = (await served(store, 'anime', 20, 'recommendations')) as {
      data: Array<{ entry: { mal_id: number }; votes: number; url: string }>;
    };
    expect(body.data.length).toBeGreaterThan(0);
    const more = {
      data: body.data.map((r, i) => (i === 0 ? { ...r, votes: r.votes + 2 } : r)),
    };
    expect((await writer.part('anime', 20, 'recommendations', more, T1)).outcome).toBe('changed');
    const get = answersOf(store);
    const after = (await get<EntryRecommendation[]>('/v1/anime/20/recommendations'))!.data;
    expect(after.find((r) => r.entry.mal_id === body.data[0]!.entry.mal_id)!.votes).toBe(body.data[0]!.votes + 2);
    expect(await writer.part('anime', 20, 'recommendations', more, T1)).toEqual({ outcome: 'unchanged' });
    // The votes go again when the upstream counts fewer; the users' recommendations stay.
    expect((await writer.part('anime', 20, 'recommendations', body, T1)).outcome).toBe('changed');
    expect((await get('/v1/anime/20/recommendations'))!.data).toEqual(body.data);
    const recent = (await get<RecentRecommendation[]>('/v1/recommendations/anime'))!;
    expect(recent.data.every((r) => r.user.username !== '')).toBe(true);
  });

  it('adds an entry to a news item it lists, keeping its text and other entries', async () => {
    const item = demoData.news!.find((n) => !n.anime_ids.includes(20))!;
    const store = createMemoryStore(demoData);
    const writer = createRecordWriter(store);
    const listed = Object.fromEntries(Object.entries(item).filter(([k]) => !['content', 'tag_ids', 'anime_ids', 'manga_ids'].includes(k)));
    expect((await writer.part('anime', 20, 'news', { data: [listed] }, T1)).outcome).toBe('changed');
    expect(await store.get('news', item.mal_id)).toEqual({
      ...item,
      anime_ids: [...item.anime_ids, 20],
    });
  });

  it('writes listing items, skipping an invalid one', async () => {
    const store = createMemoryStore({});
    const writer = createRecordWriter(store);
    const [a, b] = demoData.anime!;
    const outcomes = await writer.items('anime', [a, { ...b, score: -1 }, { nope: true }], T0);
    expect(outcomes.map((o) => o.outcome)).toEqual(['changed', 'invalid', 'invalid']);
    expect(await store.get('anime', a!.mal_id)).toEqual(a);
    expect(await store.get('anime', b!.mal_id)).toBeUndefined();
    expect(await writer.items('anime', [a], T1)).toEqual([{ outcome: 'unchanged' }]);
  });

  it('removes an entry with the records it owns and lists it as deleted', async () => {
    const store = createMemoryStore(demoData);
    const writer = createRecordWriter(store);
    expect(await writer.remove('anime', 20, T1)).toBe(true);
    const get = answersOf(store);
    expect(await get('/v1/anime/20')).toBeUndefined();
    expect(
      await store.query('animeCharacters', {
        where: [{ field: 'owners', op: 'has', value: 'anime:20' }],
        offset: 0,
        limit: 10,
      }),
    ).toMatchObject({ total: 0 });
    expect(await store.get('themes', 20)).toBeUndefined();
    expect(await store.get('updates', 'anime:20')).toBeUndefined();
    expect((await get<number[]>('/v1/anime/deleted'))!.data).toContain(20);
    expect(await writer.remove('anime', 20, T1)).toBe(false);
  });

  it('maps every part the kinds declare, and says which collections a part replaces', () => {
    expect(PART_COLLECTIONS.anime.characters).toEqual(['animeCharacters']);
    expect(
      mapEntryPart('anime', 20, 'themes', {
        data: { openings: ['a'], endings: [] },
      }),
    ).toEqual({
      records: { themes: [{ anime_id: 20, openings: ['a'], endings: [] }] },
      replaces: ['themes'],
      references: {},
    });
    const relations = mapEntryPart('manga', 2, 'relations', {
      data: [
        {
          relation: 'Adaptation',
          entry: [{ mal_id: 30, type: 'anime', name: 'x', url: 'u' }],
        },
      ],
    });
    expect(relations.records.relations).toEqual([
      {
        from_type: 'manga',
        from_id: 2,
        relation: 'Adaptation',
        to_type: 'anime',
        to_id: 30,
      },
    ]);
    expect(partsOf('manga')).not.toContain('staff');
    expect((anime20 as Anime).mal_id).toBe(20);
  });
});
