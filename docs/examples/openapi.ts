/**
 * The OpenAPI document, from a running app or straight from the library. Shown in docs/index.md.
 * @module
 */
// #region openapi
import { createOpenApiDocument } from '@catalogue-api/core';

// Served by every app at GET /v1/openapi.json; or build it yourself, e.g. for a docs site:
export const document = createOpenApiDocument({ serverUrl: 'https://api.example.org' });
// #endregion openapi
