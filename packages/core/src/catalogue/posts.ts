/**
 * News, featured articles and stacks: browsing and search, one item with its related entries, the
 * tag lists with counts, and the converters every list of them shares (an entry's, a character's
 * or a person's articles are the same `Article` objects).
 * @module
 */
import { isShown, type SfwMode } from '../seam/sfw.js';
import type { Page, Paging, PostSearch, StackSearch } from './queries.js';
import type { Article, ArticleFull, ArticleTag } from '../schemas/article.js';
import type { RelatedEntry } from '../schemas/common.js';
import type { News, NewsFull, NewsTag } from '../schemas/news.js';
import type { Stack, StackFull } from '../schemas/stack.js';
import type { Condition, OrderKey, CatalogueStore } from '../seam/types.js';
import { BY_ID } from './named.js';
import { NEWEST_FIRST, NEWEST_STACKS_FIRST, toArticles, toNews, toStack } from './community.js';
import { ALL, slice, toRelated, type Kind } from './shared.js';

/**
 * One page of the articles that meet some conditions, newest first.
 * @param records - The record store.
 * @param where - e.g. the owner condition of a character's articles.
 * @param paging - The page.
 */
export async function articlePage(records: CatalogueStore, where: readonly Condition[], paging: Paging): Promise<Page<Article>> {
  const page = await records.query('articles', { where, orderBy: NEWEST_FIRST, ...slice(paging) });
  return { data: await toArticles(records, page.data), total: page.total };
}

/**
 * The entries of a kind among some ids that exist and a mode shows, in the ids' order.
 * @param records - The record store.
 * @param kind - Anime or manga.
 * @param ids - Entry ids.
 * @param sfw - The request's SFW mode.
 */
async function shownRelated(records: CatalogueStore, kind: Kind, ids: readonly number[], sfw: SfwMode): Promise<RelatedEntry[]> {
  const found = await records.getMany(kind, ids);
  return found.flatMap((e) => (e && isShown(e, sfw) ? [toRelated(kind, e)] : []));
}

/** The related anime and manga of a news item or article. */
async function relatedLists(records: CatalogueStore, post: { anime_ids: readonly number[]; manga_ids: readonly number[] }, sfw: SfwMode) {
  const [anime, manga] = await Promise.all([shownRelated(records, 'anime', post.anime_ids, sfw), shownRelated(records, 'manga', post.manga_ids, sfw)]);
  return { anime, manga };
}

/** How many records of a collection carry each tag. */
async function tagCounts(records: CatalogueStore, collection: 'news' | 'articles'): Promise<Map<number | string, number>> {
  return new Map(await records.tally(collection, 'tag_ids'));
}

/** The condition of a `tag` filter, if one is given. */
const tagged = (tag: number | undefined): Condition[] => (tag === undefined ? [] : [{ field: 'tag_ids', op: 'has', value: tag }]);

/**
 * One page of news, newest first or by relevance with `q` (`GET /v1/news`).
 * @param records - The record store.
 * @param s - The search.
 */
export async function newsList(records: CatalogueStore, s: PostSearch): Promise<Page<News>> {
  const page = await records.query('news', { where: tagged(s.tag), search: s.q, orderBy: s.q === undefined ? NEWEST_FIRST : undefined, ...slice(s) });
  return { data: page.data.map(toNews), total: page.total };
}

/**
 * A news item with its tags and related anime and manga, SFW-filtered (`GET /v1/news/{id}`).
 * @param records - The record store.
 * @param id - The item's id.
 * @param sfw - The request's SFW mode.
 */
export async function newsItem(records: CatalogueStore, id: number, sfw: SfwMode): Promise<NewsFull | undefined> {
  const n = await records.get('news', id);
  if (!n) return undefined;
  const [tags, related] = await Promise.all([records.getMany('newsTags', n.tag_ids), relatedLists(records, n, sfw)]);
  return {
    ...toNews(n),
    content: n.content,
    tags: tags.flatMap((t) => (t ? [{ mal_id: t.mal_id, name: t.name, url: t.url }] : [])),
    related,
  };
}

/**
 * News tags with counts, by category then name (`GET /v1/news/tags`).
 * @param records - The record store.
 */
export async function newsTags(records: CatalogueStore): Promise<NewsTag[]> {
  const orderBy: OrderKey[] = [{ field: 'category', dir: 'asc' }, { field: 'name', dir: 'asc' }];
  const [tags, counts] = await Promise.all([records.query('newsTags', { orderBy, ...ALL }), tagCounts(records, 'news')]);
  return tags.data.map((t) => ({ mal_id: t.mal_id, name: t.name, url: t.url, category: t.category, count: counts.get(t.mal_id) ?? 0 }));
}

/**
 * One page of articles, newest first or by relevance with `q` (`GET /v1/articles`).
 * @param records - The record store.
 * @param s - The search.
 */
export async function articleList(records: CatalogueStore, s: PostSearch): Promise<Page<Article>> {
  const page = await records.query('articles', { where: tagged(s.tag), search: s.q, orderBy: s.q === undefined ? NEWEST_FIRST : undefined, ...slice(s) });
  return { data: await toArticles(records, page.data), total: page.total };
}

/**
 * An article with its related anime and manga, SFW-filtered (`GET /v1/articles/{id}`).
 * @param records - The record store.
 * @param id - The article's id.
 * @param sfw - The request's SFW mode.
 */
export async function articleItem(records: CatalogueStore, id: number, sfw: SfwMode): Promise<ArticleFull | undefined> {
  const a = await records.get('articles', id);
  if (!a) return undefined;
  const [[article], related] = await Promise.all([toArticles(records, [a]), relatedLists(records, a, sfw)]);
  return { ...article!, content: a.content, related };
}

/**
 * Article tags with counts, by name (`GET /v1/articles/tags`).
 * @param records - The record store.
 */
export async function articleTags(records: CatalogueStore): Promise<ArticleTag[]> {
  const orderBy: OrderKey[] = [{ field: 'name', dir: 'asc' }, BY_ID];
  const [tags, counts] = await Promise.all([records.query('articleTags', { orderBy, ...ALL }), tagCounts(records, 'articles')]);
  return tags.data.map((t) => ({ mal_id: t.mal_id, name: t.name, url: t.url, count: counts.get(t.mal_id) ?? 0 }));
}

/**
 * One page of stacks, newest first or by relevance with `q` (`GET /v1/stacks`).
 * @param records - The record store.
 * @param s - The search.
 */
export async function stackList(records: CatalogueStore, s: StackSearch): Promise<Page<Stack>> {
  const where: Condition[] = s.type === undefined ? [] : [{ field: 'type', op: 'eq', value: s.type }];
  const page = await records.query('stacks', { where, search: s.q, orderBy: s.q === undefined ? NEWEST_STACKS_FIRST : undefined, ...slice(s) });
  return { data: page.data.map(toStack), total: page.total };
}

/**
 * A stack with its entries in source order, SFW-filtered (`GET /v1/stacks/{id}`).
 * @param records - The record store.
 * @param id - The stack's id.
 * @param sfw - The request's SFW mode.
 */
export async function stackItem(records: CatalogueStore, id: number, sfw: SfwMode): Promise<StackFull | undefined> {
  const s = await records.get('stacks', id);
  if (!s) return undefined;
  const idsOf = (kind: Kind) => s.entries.filter((e) => e.type === kind).map((e) => e.mal_id);
  const [anime, manga] = await Promise.all([records.getMany('anime', idsOf('anime')), records.getMany('manga', idsOf('manga'))]);
  const found = { anime: new Map(anime.flatMap((e) => (e ? [[e.mal_id, e] as const] : []))), manga: new Map(manga.flatMap((e) => (e ? [[e.mal_id, e] as const] : []))) };
  const entries = s.entries.flatMap((e) => {
    const m = found[e.type].get(e.mal_id);
    return m && isShown(m, sfw) ? [{ ...toRelated(e.type, m), comment: e.comment }] : [];
  });
  return { ...toStack(s), entries };
}
