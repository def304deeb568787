/**
 * The OpenAPI document, byte for byte, against a committed copy (`openapi.snapshot.json`): a change
 * to the route table, a query schema or a response schema that moves anything in the document
 * fails here. When the document is meant to change, write the copy again from
 * `createOpenApiDocument()` as `JSON.stringify(doc, null, 2)` and a final newline, in the commit
 * that changes it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../src/catalogue/openapi.js';

const file = new URL('./openapi.snapshot.json', import.meta.url);

describe('OpenAPI document', () => {
  it('is byte-equal to the committed copy', () => {
    const text = `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`;
    const committed = readFileSync(file, 'utf8');
    // Compare the text first (the failure shows the first line that moved), then the bytes.
    expect(text).toBe(committed);
    expect(Buffer.from(text).equals(readFileSync(file))).toBe(true);
  });
});
