// Writes jikan-v4-shapes.json (read by jikan-v4-shapes.ts): the response shapes of the Jikan v4 OpenAPI document, reduced to
// field names, leaf types and nullability, for jikan-compat.test.ts.
//
//   node packages/core/test/routes/jikan-v4-shapes.gen.mjs <jikan-rest storage/api-docs/api-docs.json>
//
// The document is jikan-me/jikan-rest `storage/api-docs/api-docs.json` @ a2a27d0 (MIT). Only names,
// types and nullability are kept: descriptions, examples and everything else are dropped. The
// document is reproduced faithfully, errors included; the test corrects them with the server's
// behaviour in one commented place, so that what is Jikan's and what is ours stays visible.
import { readFileSync, writeFileSync } from 'node:fs';

const [, , source] = process.argv;
if (!source) throw new Error('usage: node jikan-v4-shapes.gen.mjs <api-docs.json>');
const doc = JSON.parse(readFileSync(source, 'utf8'));

/** Paths the spec leaves out ("What the service does"): user data, clubs, watch, manga forum, userupdates. */
const UNSERVED = /^\/(users|clubs|watch)(\/|$)|^\/random\/users$|^\/manga\/\{id\}\/forum$|\/userupdates$/;

const components = new Set();

/**
 * A schema as a shape: `'integer' | 'number' | 'string' | 'boolean' | 'object' | 'any'` leaves with a
 * `?` suffix when nullable, `'#name'` for a component, `[item]` for arrays, `{ field: shape }` for
 * objects, `{ $anyOf: [...] }` for alternatives.
 */
function shape(s) {
  if (s.$ref) {
    const name = s.$ref.replace('#/components/schemas/', '');
    components.add(name);
    return `#${name}`;
  }
  const q = s.nullable ? '?' : '';
  if (s.allOf) {
    const parts = s.allOf.map(shape).map(resolve);
    return Object.assign({}, ...parts);
  }
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives && !s.properties) return { $anyOf: alternatives.map(shape) };
  // An array that also declares `properties` (entry_recommendations) is read as its `items`:
  // properties of an array value mean nothing in JSON Schema.
  if (s.type === 'array' || s.items) return [s.items ? shape(s.items) : 'any'];
  if (s.properties) {
    if (s.nullable) throw new Error('a nullable object with fields: extend the shape grammar');
    return Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, shape(v)]));
  }
  const type = s.type === 'float' ? 'number' : (s.type ?? 'any');
  return `${type}${q}`;
}

/** An `allOf` part as an object of fields (refs inlined one level, so their fields merge). */
function resolve(part) {
  if (typeof part === 'string' && part.startsWith('#')) {
    const target = shape(doc.components.schemas[part.slice(1)]);
    return resolve(target);
  }
  if (part && typeof part === 'object' && !Array.isArray(part)) return part;
  throw new Error(`cannot merge ${JSON.stringify(part)}`);
}

const routes = {};
const queries = {};
const deref = (o) => (o.$ref ? deref(o.$ref.split('/').slice(1).reduce((at, key) => at[key], doc)) : o);
for (const [path, item] of Object.entries(doc.paths)) {
  if (UNSERVED.test(path) || !item.get) continue;
  const schema = item.get.responses?.['200']?.content?.['application/json']?.schema ?? {};
  routes[path] = Object.keys(schema).length ? shape(schema) : 'any';
  // Query parameters: the enum values where the document lists them, else the type.
  const params = (item.get.parameters ?? []).map(deref).filter((p) => p.in === 'query');
  queries[path] = Object.fromEntries(params.map((p) => [p.name, deref(p.schema ?? {}).enum ?? deref(p.schema ?? {}).type ?? 'string']));
}
const defs = {};
for (let done = 0; done !== components.size; ) {
  done = components.size;
  for (const name of [...components]) defs[name] ??= shape(doc.components.schemas[name]);
}
const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
// One entry a line, so that a change of the document shows as a change of the entries it moved.
const block = (o) =>
  Object.entries(o)
    .map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(',\n');

writeFileSync(
  new URL('./jikan-v4-shapes.json', import.meta.url),
  `{
  "routes": {
${block(routes)}
  },
  "queries": {
${block(queries)}
  },
  "components": {
${block(sorted(defs))}
  }
}
`,
);
