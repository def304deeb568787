/**
 * The zod schemas of every response of the catalogue and status APIs, and the types they derive:
 * for stores and importers outside core, so that they validate records exactly as core does.
 * @module @catalogue-api/core/schemas
 */
export type { Anime } from './schemas/anime.js';
export * from './schemas/index.js';
export type { Broadcast, DateRange, Images, Pagination, Reference, Title, Trailer } from './schemas/common.js';
export { maintenanceSchema, serviceSchema, statusSnapshotSchema } from './status/schema.js';
