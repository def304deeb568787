/**
 * The sub-resources of one anime or manga over the seam, once for both kinds: relations,
 * recommendations, news, reviews, stacks, articles, cast, pictures, statistics, more info and
 * external links. SFW modes filter only the referenced media, never the entry itself (spec, SFW
 * rule 3); a referenced entry's SFW class is computed here from its record (`sfwClass`).
 * @module
 */
import { isShown, type SfwMode } from '../seam/sfw.js';
import type { Article } from '../schemas/article.js';
import type { MangaCharacter } from '../schemas/cast.js';
import type { Link } from '../schemas/common.js';
import type { MediaPicture, Moreinfo, Relation } from '../schemas/media.js';
import type { News } from '../schemas/news.js';
import type { EntryRecommendation } from '../schemas/recommendation.js';
import type { AnimeReview, MangaReview } from '../schemas/review.js';
import type { Stack } from '../schemas/stack.js';
import type { EntryReviewQuery, Page, Paging } from './queries.js';
import type { Condition, CatalogueStore } from '../seam/types.js';
import { NEWEST_FIRST, NEWEST_STACKS_FIRST, REVIEW_ORDERS, toArticles, toEntryReview, toNews, toStack } from './community.js';
import type { KindSpec } from './kinds.js';
import { entriesById, hiddenIds, joined, ownedBy, ownedRows, referencedIds, slice, toCharacterMeta, toMeta, toRelated, type Kind } from './shared.js';

/**
 * An entry's relations, grouped by relation in the order first met; referenced entries that do not
 * exist or that SFW hides are left out, and so is a group left empty.
 * @param records - The store.
 * @param kind - The entry's kind.
 * @param id - The entry's id.
 * @param sfw - The request's SFW mode.
 */
export async function relationsOf(records: CatalogueStore, kind: Kind, id: number, sfw: SfwMode): Promise<Relation[]> {
  const rows = await ownedRows(records, 'relations', kind, id);
  const ids: Record<Kind, number[]> = { anime: [], manga: [] };
  for (const r of rows) ids[r.to_type].push(r.to_id);
  const targets = { anime: await entriesById(records, 'anime', ids.anime), manga: await entriesById(records, 'manga', ids.manga) };
  // In the order first met (a Map keeps insertion order), also when all of a group's entries are left out.
  const groups = new Map<string, Relation>();
  for (const r of rows) {
    let group = groups.get(r.relation);
    if (group === undefined) groups.set(r.relation, (group = { relation: r.relation, entry: [] }));
    const target = targets[r.to_type].get(r.to_id);
    if (target && isShown(target, sfw)) group.entry.push(toRelated(r.to_type, target));
  }
  return [...groups.values()].filter((group) => group.entry.length > 0);
}

/**
 * An entry's recommendations: the other entries recommended with it, most votes first (ties by id),
 * each vote a recommendation record naming both.
 * @param records - The store.
 * @param kind - The entry's kind.
 * @param id - The entry's id.
 * @param sfw - The request's SFW mode.
 */
export async function recommendationsOf(records: CatalogueStore, kind: Kind, id: number, sfw: SfwMode): Promise<EntryRecommendation[]> {
  const rows = await ownedRows(records, 'recommendations', kind, id);
  const votes = new Map<number, number>();
  for (const r of rows) {
    // A record naming the entry twice counts for both of its places.
    for (const own of r.entry_ids) {
      if (own !== id) continue;
      const other = r.entry_ids[0] === id ? r.entry_ids[1] : r.entry_ids[0];
      votes.set(other, (votes.get(other) ?? 0) + 1);
    }
  }
  const ranked = [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const targets = await entriesById(records, kind, ranked.map(([other]) => other));
  const out: EntryRecommendation[] = [];
  for (const [other, count] of ranked) {
    const target = targets.get(other);
    if (!target || !isShown(target, sfw)) continue;
    const [lo, hi] = id < other ? [id, other] : [other, id];
    out.push({ entry: toMeta(target), url: `https://myanimelist.net/recommendations/${kind}/${lo}-${hi}`, votes: count });
  }
  return out;
}

/**
 * News about an entry, newest first; with SFW, items that also concern an entry SFW hides go (the
 * entry itself never counts).
 * @param records - The store.
 * @param kind - The entry's kind.
 * @param id - The entry's id.
 * @param paging - The page.
 * @param sfw - The request's SFW mode.
 */
export async function newsOf(records: CatalogueStore, kind: Kind, id: number, paging: Paging, sfw: SfwMode): Promise<Page<News>> {
  const owned = ownedBy(kind, id);
  const where: Condition[] = [owned];
  if (sfw !== 'off') {
    // Of the entries the entry's news concern (a few), those the mode hides: not every hidden id.
    const hidden = await Promise.all(
      (['anime', 'manga'] as const).map(async (other) => {
        const referenced = (await referencedIds(records, 'news', `${other}_ids`, [owned])).filter((x) => other !== kind || x !== id);
        return { other, ids: await hiddenIds(records, other, sfw, referenced) };
      }),
    );
    for (const { other, ids } of hidden) if (ids.length > 0) where.push({ field: `${other}_ids`, op: 'hasNone', values: ids });
  }
  const page = await records.query('news', { where, orderBy: NEWEST_FIRST, ...slice(paging) });
  return { data: page.data.map(toNews), total: page.total };
}

/**
 * An entry's reviews in the requested order.
 * @param records - The store.
 * @param kind - The entry's kind.
 * @param id - The entry's id.
 * @param q - The page, order and which reviews to include.
 */
export async function reviewsOf(records: CatalogueStore, kind: Kind, id: number, q: EntryReviewQuery): Promise<Page<AnimeReview | MangaReview>> {
  const where: Condition[] = [ownedBy(kind, id)];
  if (!q.preliminary) where.push({ field: 'is_preliminary', op: 'ne', value: true });
  if (!q.spoilers) where.push({ field: 'is_spoiler', op: 'ne', value: true });
  const page = await records.query('reviews', { where, orderBy: REVIEW_ORDERS[q.sort], ...slice(q) });
  return { data: page.data.map((r) => toEntryReview(kind, r)), total: page.total };
}

/**
 * The stacks holding an entry, newest first.
 * @param records - The store.
 * @param kind - The entry's kind.
 * @param id - The entry's id.
 * @param paging - The page.
 */
export async function stacksOf(records: CatalogueStore, kind: Kind, id: number, paging: Paging): Promise<Page<Stack>> {
  const page = await records.query('stacks', { where: [ownedBy(kind, id)], orderBy: NEWEST_STACKS_FIRST, ...slice(paging) });
  return { data: page.data.map(toStack), total: page.total };
}

/**
 * The articles about an entry, newest first.
 * @param records - The store.
 * @param kind - The entry's kind.
 * @param id - The entry's id.
 * @param paging - The page.
 */
export async function articlesOf(records: CatalogueStore, kind: Kind, id: number, paging: Paging): Promise<Page<Article>> {
  const page = await records.query('articles', { where: [ownedBy(kind, id)], orderBy: NEWEST_FIRST, ...slice(paging) });
  return { data: await toArticles(records, page.data), total: page.total };
}

/**
 * A manga's characters and their roles, as the cast records list them (characters not in the
 * catalogue left out).
 * @param records - The store.
 * @param id - The manga's id.
 */
export async function mangaCastOf(records: CatalogueStore, id: number): Promise<MangaCharacter[]> {
  const rows = await joined(records, 'mangaCharacters', 'manga', id, 'characters', (r) => r.character_id);
  return rows.map(([row, c]) => ({ character: toCharacterMeta(c), role: row.role }));
}

/**
 * An entry's pictures.
 * @param records - The store.
 * @param kind - The entry's kind.
 * @param id - The entry's id.
 */
export async function picturesOf(records: CatalogueStore, kind: Kind, id: number): Promise<MediaPicture[]> {
  return (await records.get('pictures', `${kind}:${id}`))?.pictures ?? [];
}

/**
 * An entry's external links.
 * @param records - The store.
 * @param kind - The entry's kind.
 * @param id - The entry's id.
 */
export async function externalOf(records: CatalogueStore, kind: Kind, id: number): Promise<Link[]> {
  return (await records.get('external', `${kind}:${id}`))?.links ?? [];
}

/**
 * An entry's "more info" text, `null` when it has none.
 * @param records - The store.
 * @param kind - The entry's kind.
 * @param id - The entry's id.
 */
export async function moreinfoOf(records: CatalogueStore, kind: Kind, id: number): Promise<Moreinfo['moreinfo']> {
  return (await records.get('moreinfo', `${kind}:${id}`))?.moreinfo ?? null;
}

/**
 * An entry's list statistics, all zero when it has none: the fields of the kind's statistics, in
 * their order.
 * @param records - The store.
 * @param spec - The entry's kind.
 * @param id - The entry's id.
 */
export async function statisticsOf(records: CatalogueStore, spec: KindSpec, id: number): Promise<Record<string, unknown>> {
  const s = (await records.get(spec.statistics.collection, id)) as Record<string, unknown> | undefined;
  if (!s) return spec.statistics.empty;
  return Object.fromEntries(Object.keys(spec.statistics.empty).map((k) => [k, s[k]]));
}
