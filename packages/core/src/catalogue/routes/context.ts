/**
 * What catalogue route handlers are given besides the request.
 * @module
 */
import type { CatalogueStore } from '../../seam/types.js';
import type { Handler, Route } from '../../edge/pipeline.js';

/** The catalogue app's handler context. */
export interface CatalogueContext {
  /** The app's record store, which the rows' catalogue functions read. */
  records: CatalogueStore;
  /** The injected clock, in milliseconds since the epoch. */
  now: () => number;
  /** The injected source of random numbers in [0, 1), for the random picks. */
  random: () => number;
}

/** A catalogue route handler. */
export type CatalogueHandler = Handler<CatalogueContext>;
/** A catalogue route. */
export type CatalogueRoute = Route<CatalogueContext>;
