/**
 * Every catalogue route, in matching order.
 * @module
 */
import { animeDetailRoutes } from './anime-details.js';
import { animeRoutes } from './anime.js';
import { articleRoutes } from './articles.js';
import type { CatalogueRoute } from './context.js';
import { genreRoutes } from './genres.js';
import { idsRoutes } from './ids.js';
import { magazineRoutes } from './magazines.js';
import { mangaRoutes } from './manga.js';
import { namedRows } from './named.js';
import { newsRoutes } from './news.js';
import { producerRoutes } from './producers.js';
import { randomRoutes } from './random.js';
import { recommendationRoutes } from './recommendations.js';
import { reviewRoutes } from './reviews.js';
import { scheduleRoutes } from './schedules.js';
import { seasonRoutes } from './seasons.js';
import { stackRoutes } from './stacks.js';
import { topRoutes } from './top.js';
import { unavailableRoutes } from './unavailable.js';

/**
 * All routes of the catalogue API. The unavailable endpoints come first (they shadow `/:id` patterns
 * such as `/v1/manga/:id/forum`), then the literal id lists ahead of `/v1/anime/:id` and `/v1/manga/:id`.
 */
export const catalogueRoutes: CatalogueRoute[] = [
  ...unavailableRoutes,
  ...idsRoutes,
  ...animeRoutes,
  ...animeDetailRoutes,
  ...mangaRoutes,
  ...namedRows('character'),
  ...namedRows('person'),
  ...producerRoutes,
  ...magazineRoutes,
  ...genreRoutes,
  ...seasonRoutes,
  ...scheduleRoutes,
  ...topRoutes,
  ...randomRoutes,
  ...recommendationRoutes,
  ...reviewRoutes,
  ...newsRoutes,
  ...articleRoutes,
  ...stackRoutes,
];
