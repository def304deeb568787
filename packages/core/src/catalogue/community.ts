/**
 * The community records as the API shows them (news, articles, stacks, reviews) and the orders
 * their lists take: shared by an entry's own lists and the global ones.
 * @module
 */
import type { Article } from '../schemas/article.js';
import type { News } from '../schemas/news.js';
import type { ArticleRecord, NewsRecord, ReviewRecord, StackRecord } from '../schemas/records.js';
import type { AnimeReview, MangaReview } from '../schemas/review.js';
import type { Stack } from '../schemas/stack.js';
import type { EntryReviewQuery } from './queries.js';
import type { OrderKey, CatalogueStore } from '../seam/types.js';
import type { Kind } from './shared.js';

const asc = (field: string): OrderKey => ({ field, dir: 'asc' });
const desc = (field: string): OrderKey => ({ field, dir: 'desc' });

/** News and articles: newest first, ties by `mal_id`. */
export const NEWEST_FIRST: readonly OrderKey[] = [desc('date'), asc('mal_id')];
/** Stacks: newest first, ties by `mal_id`. */
export const NEWEST_STACKS_FIRST: readonly OrderKey[] = [desc('created_at'), asc('mal_id')];

/** The orders of review lists (`sort`): most reactions, newest, oldest (ties: `mal_id` up, down when oldest first). */
export const REVIEW_ORDERS: Readonly<Record<EntryReviewQuery['sort'], readonly OrderKey[]>> = {
  mostVoted: [desc('reactions'), asc('mal_id')],
  newest: NEWEST_FIRST,
  oldest: [asc('date'), desc('mal_id')],
};

/**
 * A news item as lists show it.
 * @param n - The record.
 */
export function toNews(n: NewsRecord): News {
  return {
    mal_id: n.mal_id,
    url: n.url,
    title: n.title,
    date: n.date,
    author_username: n.author_username,
    author_url: n.author_url,
    forum_url: n.forum_url,
    images: n.images,
    comments: n.comments,
    excerpt: n.excerpt,
  };
}

/**
 * A stack as lists show it (`entries_count` instead of the entries).
 * @param s - The record.
 */
export function toStack(s: StackRecord): Stack {
  return {
    mal_id: s.mal_id,
    url: s.url,
    title: s.title,
    description: s.description,
    type: s.type,
    user: s.user,
    images: s.images,
    entries_count: s.entries.length,
    restacks: s.restacks,
    created_at: s.created_at,
  };
}

/**
 * Articles as lists show them, with their tags (tags not in the catalogue are left out).
 * @param records - The store.
 * @param articles - The records.
 */
export async function toArticles(records: CatalogueStore, articles: readonly ArticleRecord[]): Promise<Article[]> {
  const tagIds = [...new Set(articles.flatMap((a) => a.tag_ids))];
  const found = await records.getMany('articleTags', tagIds);
  const tags = new Map(tagIds.map((id, i) => [id, found[i]]));
  return articles.map((a) => ({
    mal_id: a.mal_id,
    url: a.url,
    title: a.title,
    date: a.date,
    author_username: a.author_username,
    author_url: a.author_url,
    images: a.images,
    excerpt: a.excerpt,
    views: a.views,
    comments: a.comments,
    tags: a.tag_ids.flatMap((id) => {
      const t = tags.get(id);
      return t ? [{ mal_id: t.mal_id, name: t.name, url: t.url }] : [];
    }),
  }));
}

/** The fields every review has, in Jikan's order (`user` first). */
const reviewBase = (r: ReviewRecord) => ({
  user: r.user,
  mal_id: r.mal_id,
  url: r.url,
  reactions: r.reactions,
  date: r.date,
  review: r.review,
  score: r.score,
  tags: r.tags,
  is_spoiler: r.is_spoiler,
  is_preliminary: r.is_preliminary,
});

/**
 * A review as its entry's own list shows it (no `entry`): an anime review counts episodes watched,
 * a manga review chapters read.
 * @param kind - The kind of the reviewed entry.
 * @param r - The record.
 */
export function toEntryReview(kind: Kind, r: ReviewRecord): AnimeReview | MangaReview {
  return kind === 'anime'
    ? { ...reviewBase(r), type: 'anime', episodes_watched: r.progress }
    : { ...reviewBase(r), type: 'manga', chapters_read: r.progress };
}
