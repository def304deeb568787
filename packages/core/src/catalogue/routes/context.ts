/**
 * What catalogue route handlers are given besides the request.
 * @module
 */
import type { Catalogue } from '../store.js';
import type { CatalogueStore } from '../../seam/types.js';
import type { Handler, Route } from '../../edge/pipeline.js';

/** The catalogue app's handler context. */
export interface CatalogueContext {
  /** Every endpoint's logic, over the app's store. */
  catalogue: Catalogue;
  /** The store under it, for answers it writes itself (see `CatalogueStore.pluckJson`). */
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
