/**
 * Every catalogue route, in matching order.
 * @module
 */
import { animeRoutes } from './anime.js';
import type { CatalogueRoute } from './context.js';
import { unavailableRoutes } from './unavailable.js';

/** All routes of the catalogue API. */
export const catalogueRoutes: CatalogueRoute[] = [...unavailableRoutes, ...animeRoutes];
