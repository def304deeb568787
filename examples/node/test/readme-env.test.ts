/**
 * Every environment variable an example server reads is in the root README's "Environment
 * variables" table, so that the table cannot fall behind the code: every row of core's
 * `SERVER_ENV`, and any variable an example reads from the environment itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVER_ENV } from '@catalogue-api/core';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function readByExamples(): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const example of readdirSync(`${root}examples`)) {
    let files: string[];
    try {
      files = readdirSync(`${root}examples/${example}`).filter((file) => file.endsWith('.ts') && !file.endsWith('.config.ts'));
    } catch {
      continue;
    }
    for (const file of files) {
      // `process.env.X`, `env.X` (Bun, Deno and the helpers take the environment as `env`).
      for (const match of readFileSync(`${root}examples/${example}/${file}`, 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) {
        names.set(match[1]!, [...(names.get(match[1]!) ?? []), `examples/${example}/${file}`]);
      }
    }
  }
  return names;
}

it('documents in the README every environment variable the example servers read', () => {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const section = readme.slice(readme.indexOf('## Environment variables'));
  expect(section.length).toBeLessThan(readme.length);
  const table = section.split('\n').filter((line) => line.startsWith('| `'));
  const documented = new Set(table.flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!)));
  const read = readByExamples();
  for (const name of Object.keys(SERVER_ENV)) read.set(name, [...(read.get(name) ?? []), 'packages/core/src/operations/server-env.ts']);
  expect(read.size).toBeGreaterThan(10);
  const missing = [...read].filter(([name]) => !documented.has(name)).map(([name, where]) => `${name} (${[...new Set(where)].join(', ')})`);
  expect(missing).toEqual([]);
});
