/**
 * What a store author needs: the record seam (`CatalogueStore`, its collections, conditions and
 * change feed), the loaders, the catalogue's query and data types, the shared search, SFW and
 * top-list rules, and the gateway back end's store interfaces (for a shared back end such as Redis).
 * @module @catalogue-api/core/store
 */
export {
  broadcastDay,
  COLLECTION_NAMES,
  COLLECTIONS,
  collectionKey,
  fieldValues,
  isCollectionName,
  mediaTitles,
  premiere,
  SEASONS,
  WEEKDAYS,
  type CollectionName,
  type CollectionRecord,
  type CollectionSpec,
  type FieldSpec,
  type FieldType,
  type Season,
  type Weekday,
} from './seam/collections.js';
export { compareFields, holds, holdsAll, type Fields } from './seam/evaluate.js';
export { loadCatalogue } from './seam/load.js';
export { createRecordStore } from './seam/record-store.js';
export { parseStoredRecord } from './seam/record-json.js';
export type { Condition, FieldValue, OrderKey, PluckedJson, PluckQuery, RecordKey, RecordQuery, CatalogueStore, Tally } from './seam/types.js';
export type { ChangeFeed, RecordChange } from './seam/changes.js';
export { createChangeLog, changedOwners, type ChangeLog } from './seam/change-log.js';
export { createCacheKeys, type KeyedRoute } from './gateway/cache-key.js';
export { trackReads, changeTokens, Reads } from './gateway/reads.js';
export { createFreshness, type Freshness, type FreshnessOptions } from './gateway/freshness.js';
export { TOP_ORDER, topQuery, topRule, type TopFilter, type TopRule } from './catalogue/top-order.js';
export type {
  BlockPolicy,
  BlockStore,
  CacheStore,
  CachedResponse,
  CounterResult,
  CounterStore,
  CounterWindow,
  GatewayBackend,
  KeyStore,
} from './gateway/back-end.js';
export type {
  AiringFilter,
  AnimeOrderBy,
  AnimeSearch,
  Approval,
  CatalogueData,
  CharacterSearch,
  EntryReviewQuery,
  GenreCategory,
  IdsQuery,
  IdsResult,
  MagazineSearch,
  MangaOrderBy,
  MangaSearch,
  MediaSearch,
  MediaKind,
  NamedSearch,
  Page,
  Paging,
  PersonSearch,
  PostSearch,
  ProducerSearch,
  RandomQuery,
  RecentRecommendationQuery,
  ReviewQuery,
  ScheduleDay,
  ScheduleQuery,
  SeasonQuery,
  StackSearch,
  TopAnimeQuery,
  TopMangaQuery,
} from './catalogue/queries.js';
/** The `order_by` values of each kind and the record field each orders by: what `AnimeOrderBy` and `MangaOrderBy` are made of. */
export { ANIME_ORDER_BY, ANIME_TYPES, MANGA_ORDER_BY, MANGA_TYPES, MEDIA_KINDS } from './catalogue/kinds.js';
export type { DatePeriod } from './edge/query.js';
export type { SfwMode } from './seam/sfw.js';
export { sfwClass, type SfwClass } from './seam/sfw.js';
export { closeQuery } from './seam/word-similarity.js';
export { editWords, fallsBackOnlyWhenEmpty, heldPhrases, MatchTier, nearPatterns, normalizeTitle, queryEditKeys, queryWordEdges, queryWordPatterns, wordEditKeys, type NearPatterns } from './seam/search.js';
