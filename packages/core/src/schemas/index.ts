/**
 * Every response shape of the catalogue, in one place. Types derive from these zod schemas.
 * @module
 */
export * from './common.js';
export * from './anime.js';
export * from './manga.js';
export * from './media.js';
export * from './character.js';
export * from './person.js';
export * from './producer.js';
export * from './cast.js';
export * from './episode.js';
export * from './video.js';
export * from './forum.js';
export * from './recommendation.js';
export * from './review.js';
export * from './news.js';
export * from './article.js';
export * from './stack.js';
export * from './catalogue-lists.js';
export * from './responses.js';
export * from './records.js';
