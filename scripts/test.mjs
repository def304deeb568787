#!/usr/bin/env node
/**
 * Runs the whole vitest suite and ends with the skipped suites and why they were skipped, then one
 * summary line ("tests: N passed, N failed, N skipped") that any CI can read. The reasons are printed
 * at the end, beside the count, because vitest's own output scrolls past anything printed first.
 *
 * Arguments go to `vitest run` (`node scripts/test.mjs --project core`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const services = [
  ['REDIS_URL', 'Redis suites (gateway counters, blocks and cache shared across instances)', 'redis://127.0.0.1:6379'],
  ['DATABASE_URL', 'PostgreSQL suites (catalogue store, importer, status history)', 'postgres://postgres@127.0.0.1:5432/test'],
];
const unset = services.filter(([name]) => !process.env[name]);
const reasons = unset.map(([name, what, example]) => `skipping ${what}: ${name} is not set (e.g. ${name}=${example}).`);
// The browser suites (test/browser) drive Debian's chromium package; .ci/run installs it.
if (!existsSync('/usr/bin/chromium')) reasons.push('skipping browser suites (status page and API reference in headless Chromium): /usr/bin/chromium is missing (apt-get install chromium).');
for (const line of reasons) console.log(line);

const dir = mkdtempSync(join(tmpdir(), 'catalogue-api-test-'));
const report = join(dir, 'report.json');
const run = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
});

let summary = 'tests: no report was written';
const lines = [];
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  summary = `tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`;
  if (skipped > 0) {
    // Skipped tests by file and outermost suite: a skipped suite names its condition (a service's URL,
    // a runtime gap), so this is where to look for the why of each count.
    const bySuite = new Map();
    for (const file of r.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (!['skipped', 'pending', 'todo'].includes(test.status)) continue;
        const where = [relative(process.cwd(), file.name), ...(test.ancestorTitles ?? []).slice(0, 1)].join(' › ');
        const label = test.status === 'todo' ? `${where} (todo)` : where;
        bySuite.set(label, (bySuite.get(label) ?? 0) + 1);
      }
    }
    lines.push(`skipped ${skipped}, why:`);
    for (const reason of reasons) lines.push(`  ${reason}`);
    if (unset.length === 0) lines.push('  REDIS_URL and DATABASE_URL are set; each suite below skips on a condition of its own (named in its title or its skipIf).');
    for (const [label, count] of [...bySuite].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
      lines.push(`  ${String(count).padStart(4)}  ${label}`);
    }
    summary += unset.length ? ` (${unset.map(([name]) => name).join(' and ')} not set: see above)` : ' (see above)';
  }
} catch {}
rmSync(dir, { recursive: true, force: true });
for (const line of lines) console.log(line);
console.log(summary);
process.exit(run.status ?? 1);
