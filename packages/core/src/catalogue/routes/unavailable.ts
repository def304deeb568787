/**
 * Endpoints of Jikan v4 that this API deliberately does not serve (spec, "What the service does").
 * They answer 404 with a message that says so, rather than a bare "no such route".
 * @module
 */
import { ApiError } from '../../edge/errors.js';
import type { CatalogueRoute } from './context.js';

const WHY = 'This API serves only public catalogue data: /users, /watch, /clubs, the manga forum and the userupdates feeds are unavailable.';

function unavailable(what: string): CatalogueRoute['handler'] {
  return () => {
    throw new ApiError(404, `This API does not serve ${what}`, WHY);
  };
}

/** The unavailable endpoints, each a 404 with an explanation. */
export const unavailableRoutes: CatalogueRoute[] = [
  { path: '/v1/users/*', handler: unavailable('user data (/v1/users)') },
  { path: '/v1/random/users', handler: unavailable('user data (/v1/random/users)') },
  { path: '/v1/watch/*', handler: unavailable('the watch feeds (/v1/watch)') },
  { path: '/v1/clubs/*', handler: unavailable('clubs (/v1/clubs)') },
  { path: '/v1/manga/:id/forum', handler: unavailable('the manga forum') },
  { path: '/v1/anime/:id/userupdates', handler: unavailable('the anime user-updates feed') },
  { path: '/v1/manga/:id/userupdates', handler: unavailable('the manga user-updates feed') },
];
