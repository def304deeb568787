#!/usr/bin/env node
/**
 * Rewrites every code block under an `<!-- example: file#region… -->` line in docs/*.md and
 * each packages/NAME/README.md with the current text of those regions, so the pages show exactly the code that docs/examples compiles and
 * runs. docs/examples/examples.test.ts fails when a page and its example differ; run this to fix it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function region(file, name) {
  const lines = readFileSync(`${root}${file}`, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === `// #endregion ${name}`);
  if (start < 0 || end < 0) throw new Error(`${file} has no region "${name}"`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return body.map((l) => l.slice(indent)).join('\n').trim();
}

const pages = [
  ...readdirSync(`${root}docs`).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ...readdirSync(`${root}packages`).map((p) => `packages/${p}/README.md`).filter((f) => existsSync(`${root}${f}`)),
];

let changed = 0;
for (const page of pages) {
  const path = `${root}${page}`;
  const text = readFileSync(path, 'utf8');
  const next = text.replace(/(<!-- example: ([^\n]*?) -->\n```(\w+)\n)[\s\S]*?```/g, (_m, head, marker) => {
    const [file, ...regions] = marker.split('#');
    return `${head}${regions.map((name) => region(file, name)).join('\n\n')}\n\`\`\``;
  });
  if (next !== text) {
    writeFileSync(path, next);
    changed++;
    console.log(`updated ${page}`);
  }
}
console.log(`${changed} page(s) updated`);
