#!/usr/bin/env node
/**
 * Rewrites every code block under an `<!-- example: file#region… -->` line in docs/*.md and
 * each packages/NAME/README.md with the current text of those regions, so the pages show exactly the code that docs/examples compiles and
 * runs. docs/examples/examples.test.ts fails when a page and its example differ; run this to fix it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exampleCode } from './lib/doc-snippets.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const pages = [
  ...readdirSync(`${root}docs`).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ...readdirSync(`${root}packages`).map((p) => `packages/${p}/README.md`).filter((f) => existsSync(`${root}${f}`)),
];

let changed = 0;
for (const page of pages) {
  const path = `${root}${page}`;
  const text = readFileSync(path, 'utf8');
  const next = text.replace(/(<!-- example: ([^\n]*?) -->\n```(\w+)\n)[\s\S]*?```/g, (_m, head, marker) => `${head}${exampleCode(marker)}\n\`\`\``);
  if (next !== text) {
    writeFileSync(path, next);
    changed++;
    console.log(`updated ${page}`);
  }
}
console.log(`${changed} page(s) updated`);
