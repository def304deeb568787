#!/usr/bin/env node
/**
 * Runs the whole vitest suite, says plainly which service-backed suites are skipped and why, and
 * ends with one summary line ("tests: N passed, N failed, N skipped") that any CI can read.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const services = [
  ['REDIS_URL', 'Redis suites (gateway counters, blocks and cache shared across instances)', 'redis://127.0.0.1:6379'],
  ['DATABASE_URL', 'PostgreSQL suites (catalogue store, importer, status history)', 'postgres://postgres@127.0.0.1:5432/test'],
];
for (const [name, what, example] of services) {
  if (!process.env[name]) console.log(`skipping ${what}: ${name} is not set (e.g. ${name}=${example}).`);
}

const dir = mkdtempSync(join(tmpdir(), 'catalogue-api-test-'));
const report = join(dir, 'report.json');
const run = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
let summary = 'tests: no report was written';
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  summary = `tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`;
} catch {}
rmSync(dir, { recursive: true, force: true });
console.log(summary);
process.exit(run.status ?? 1);
