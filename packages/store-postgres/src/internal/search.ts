/**
 * Text search over a searchable collection (`pg_trgm`), for any collection with `search` in core's
 * `COLLECTIONS`: the hits of a folded query with the tiers of core's search index (`MatchTier`: exact,
 * one edit from it in a long word, its words whole at a text's start or after, one edit from it
 * elsewhere, prefix or word prefix ending inside a word, fuzzy), and for ordering fuzzy hits the best word similarity of a
 * record's texts and its shortest matching text. Equally good hits are ordered by the collection's
 * `relevance` keys.
 * @module
 */
import { closeQuery, COLLECTIONS, fallsBackOnlyWhenEmpty, heldPhrases, MatchTier, nearPatterns, queryEditKeys, queryWordEdges, queryWordPatterns, type CollectionName } from '@catalogue-api/core/store';
import { orderSql, type Params } from './conditions.js';
import { quoteIdentifier, tableName } from './tables.js';

/**
 * Records a one- or two-letter query can match: the most relevant ones holding a word with that
 * prefix, before filters, as in core's search index (its `candidates` default).
 */
export const SHORT_QUERY_CANDIDATES = 300;

/**
 * The relevance order of a collection's search hits after their tier, as SQL sort keys.
 * @param collection - A searchable collection.
 */
export function relevanceSql(collection: CollectionName): string {
  return orderSql(collection, COLLECTIONS[collection].relevance);
}

/**
 * A statement selecting `(key, tier, held, wsim, len)` for every record whose texts match a folded
 * query: `held` the most of the query's words and word pairs (core's `heldPhrases`) one of its texts holds whole, which
 * orders fuzzy hits before their closeness, as in the memory store.
 *
 * One- and two-letter queries match word prefixes only, among the {@link SHORT_QUERY_CANDIDATES}
 * most relevant records (as core's search index keeps them); longer ones match texts containing
 * them and texts holding a stretch within `pg_trgm` word similarity 0.5 (`<table>_text_matches`;
 * both answered by the GIN index), the latter from four letters on. Word similarity is measured
 * against core's `closeQuery` of the query (its distinct words, the first 64 characters), and the
 * memory store measures the same figure (core's `createWordSimilarity`), so that both stores find
 * the same close hits and order them alike: by the phrases held, the similarity, the shorter text.
 *
 * Fuzzy junk, as in the memory store: when some hits share a word with the query (a text of theirs
 * matches one of core's `queryWordPatterns`; every hit of a better tier does), the fuzzy hits none
 * of whose matching texts shares one are dropped.
 *
 * The fallback, as in the memory store: when no hit shares a word with the query (none at all, or
 * only junk), the records with a text word within one edit of a query word (`<table>_edit_matches`
 * over core's `queryEditKeys`) are hits too, ahead of the junk: their `held` is raised by 100 (above
 * any first-pass hit's), their length that of the shortest of those texts, at most 999 (the memory
 * store's order). The fallback is a statement of its own gated by the first one's answer: a query
 * with hits that share a word never runs it.
 * @param schema - The schema (quoted).
 * @param collection - A searchable collection.
 * @param q - A folded, non-empty query.
 * @param p - The statement's parameters.
 */
export function hitsSql(schema: string, collection: CollectionName, q: string, p: Params): string {
  const t = tableName(collection);
  const table = `${schema}.${quoteIdentifier(t)}`;
  const texts = `${schema}.${quoteIdentifier(`${t}_texts`)}`;
  // The near tiers: a text of the query's length give or take one, matching one of core's patterns.
  const near = nearPatterns(q);
  const length = [...q].length;
  const nearCase = (patterns: string[], tier: number) =>
    patterns.length === 0 ? '' : ` when length(x.title) between ${length - 1} and ${length + 1} and x.title like any(${p.add(patterns, 'text[]')}) then ${tier}`;
  // Each text's best tier: the CASE tests them best first (core's MatchTier and its tierOf).
  const { Exact, Near, Prefix, Words, NearShortWord, PartPrefix, WordPrefix, Fuzzy } = MatchTier;
  const nearWhen = nearCase(near.near, Near);
  const shortWordWhen = nearCase(near.shortWord, NearShortWord);
  const holding = `case when x.title = ${p.add(q, 'text')} then ${Exact}${nearWhen}
    when x.title like ${p.add(`${q} %`, 'text')} then ${Prefix}
    when x.title like ${p.add(`% ${q} %`, 'text')} or x.title like ${p.add(`% ${q}`, 'text')} then ${Words}${shortWordWhen}
    when x.title like ${p.add(`${q}%`, 'text')} then ${PartPrefix} when x.title like ${p.add(`% ${q}%`, 'text')} then ${WordPrefix} else ${Fuzzy} end`;
  const tier = `min(${holding}) as tier`;
  if ([...q].length < 3) {
    // Every hit is a word-prefix match, so the tier is the whole order. The texts of each
    // candidate by its key (a lateral aggregate), not a scan of every text.
    return `
      select c.key, s.tier, 0 as held, 1::real as wsim, 0 as len
      from (
        select t.key from ${table} t where t._prefixes @> ${p.add([q], 'text[]')}
        order by ${relevanceSql(collection)} t.seq limit ${SHORT_QUERY_CANDIDATES}
      ) c
      cross join lateral (select ${tier} from ${texts} x where x.key = c.key) s`;
  }
  // What word similarity measures, as in the memory store (core's closeQuery): none for a query
  // under four characters, whose close hits are the texts containing it. A three-letter query holds
  // two word-edge trigrams ("  s", " sh") of its four, which half the texts share.
  const fuzzy = closeQuery(q) ?? null;
  // The few patterns a text holding a query word matches come first: most texts that share a
  // word pass on them. Only the others that pass the edge pre-test (two patterns a word) are
  // matched against the typo patterns (~4 a letter), a LIKE each, ~0.1 µs.
  const patterns = queryWordPatterns(q);
  const holds = patterns.filter((x) => !x.endsWith(' %'));
  const typos = patterns.filter((x) => x.endsWith(' %'));
  const edges = queryWordEdges(q);
  const matches = `${schema}.${quoteIdentifier(`${t}_text_matches`)}`;
  // How many of the query's words and word pairs (core's heldPhrases) a text holds whole: the first order of fuzzy hits.
  const heldPatterns = heldPhrases(q).map((w) => p.add(`% ${w} %`, 'text'));
  const held = (title: string) => `(${heldPatterns.map((w) => `(' ' || ${title} || ' ' like ${w})::int`).join(' + ')})`;
  const keys = queryEditKeys(q);
  const keysParam = keys.length > 0 ? p.add(keys, 'text[]') : '';
  const edits = `${schema}.${quoteIdentifier(`${t}_edit_matches`)}`;
  // A one-word text one edit from a one-word query may share too few trigrams with it for word
  // similarity 0.5 ("kobato" for "kobito"): the edit index names it, as in the memory store: the
  // texts that are such a word (an equality lookup in the trigram index, which pg_trgm indexes from
  // 1.6, PostgreSQL 14), not every text holding one.
  let source = `${matches}(${p.add(`%${q}%`, 'text')}, ${p.add(fuzzy, 'text')}) x`;
  if (near.near.length > 0 && !q.includes(' ') && keysParam) {
    const words = `${schema}.${quoteIdentifier(`${t}_edits`)}`;
    source = `(select * from ${source} union all
      select x.key, x.title, 0::real from ${texts} x
      where x.title = any(array(select e.word from ${words} e where e.edit = any(${keysParam}))) and length(x.title) between ${length - 1} and ${length + 1}) x`;
  }
  // Only a text containing the query (its word similarity 1: every text the infix matches) can
  // hold it whole or from a word's start; any other is near or fuzzy.
  const nearOnly = nearWhen || shortWordWhen ? `case${nearWhen}${shortWordWhen} else ${Fuzzy} end` : `${Fuzzy}`;
  const tierOfMatch = `min(case when x.wsim = 1 then ${holding} else ${nearOnly} end) as tier`;
  const first = `
    select m.key, m.tier, m.held, m.wsim, m.len, m.some_share
    from (
      select m.*, bool_or(m.tier < ${MatchTier.Fuzzy} or m.shares) over () as some_share
      from (
        select x.key, ${tierOfMatch}, max(${held('x.title')}) as held, max(x.wsim) as wsim, min(length(x.title)) as len,
          bool_or(
            ' ' || x.title || ' ' like any(${p.add(holds, 'text[]')})
            or (' ' || x.title || ' ' like any(${p.add(edges, 'text[]')}) and ' ' || x.title || ' ' like any(${p.add(typos, 'text[]')}))
          ) as shares
        from ${source} group by x.key
      ) m
    ) m
    where m.tier < ${MatchTier.Fuzzy} or m.shares or not m.some_share`;
  if (keys.length === 0) return `select m.key, m.tier, m.held, m.wsim, m.len from (${first}) m`;
  // The gates are uncorrelated subqueries: PostgreSQL tests them once (a one-time filter) and runs
  // the fallback's scans only when the first statement found nothing that shares a word.
  return `
    with n as materialized (${first}),
    f as materialized (
      select e.key, ${MatchTier.Fuzzy} as tier, 100 + max(${held('e.title')}) as held, 2::real as wsim, least(min(length(e.title)), 999) as len
      from ${edits}(${keysParam}) e
      where not exists (select 1 from n${fallsBackOnlyWhenEmpty(q) ? '' : ' where n.some_share'}) group by e.key
    )
    select n.key, n.tier, n.held, n.wsim, n.len from n where n.some_share or n.key not in (select f.key from f)
    union all
    select f.key, f.tier, f.held, f.wsim, f.len from f`;
}

/** The order of search hits by relevance (`h` the hits, `t` the table): tier; for fuzzy hits the query words held whole, then closeness; relevance keys. */
export function rankSql(collection: CollectionName): string {
  const fuzzy = MatchTier.Fuzzy;
  return `h.tier, case when h.tier = ${fuzzy} then h.held end desc, case when h.tier = ${fuzzy} then h.wsim end desc, case when h.tier = ${fuzzy} then h.len end, ${relevanceSql(collection)} t.seq`;
}
