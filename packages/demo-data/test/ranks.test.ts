/**
 * `rank` agrees with `score` and `popularity` with `members` for every anime and manga of both
 * datasets: the demo dataset shipped here, and the benchmark dataset that
 * `scripts/bench-data/build.mjs` writes (built here at a small scale into a temporary folder).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { demoData } from '../src/index.js';

type Media = { mal_id: number; approved: boolean; score: number | null; members: number | null; rank: number | null; popularity: number | null };

/** Every record that breaks MAL's definitions, one line each (an empty list when all agree). */
function rankProblems(records: readonly Media[]): string[] {
  const problems: string[] = [];
  for (const r of records) {
    if (r.rank !== null && (r.score === null || !r.approved)) problems.push(`${r.mal_id}: rank ${r.rank} without a score or approval`);
    if (r.rank === null && r.score !== null && r.approved) problems.push(`${r.mal_id}: score ${r.score} but no rank`);
    if ((r.popularity === null) !== (r.members === null)) problems.push(`${r.mal_id}: popularity ${r.popularity}, members ${r.members}`);
  }
  for (const [place, value] of [['rank', 'score'], ['popularity', 'members']] as const) {
    const list = records.filter((r) => r[place] !== null).sort((a, b) => a[place]! - b[place]!);
    for (let i = 1; i < list.length; i++) {
      const a = list[i - 1]!;
      const b = list[i]!;
      if (a[place] === b[place]) problems.push(`${a.mal_id} and ${b.mal_id} share ${place} ${a[place]}`);
      else if (a[value]! < b[value]!) problems.push(`${a.mal_id} (${place} ${a[place]}, ${value} ${a[value]}) is ahead of ${b.mal_id} (${value} ${b[value]})`);
    }
  }
  return problems;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const benchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ranks-'));
afterAll(() => fs.rmSync(benchDir, { recursive: true, force: true }));

describe('rank and popularity agree with score and members', () => {
  it('in the demo anime and manga, every record', () => {
    expect(rankProblems(demoData.anime)).toEqual([]);
    expect(rankProblems(demoData.manga ?? [])).toEqual([]);
    expect(demoData.anime.filter((a) => a.rank !== null).length).toBeGreaterThan(300);
  });

  it('in the benchmark anime and manga, every record', () => {
    execFileSync(process.execPath, [path.join(root, 'scripts/bench-data/build.mjs')], {
      cwd: root,
      env: { ...process.env, BENCH_SCALE: '0.02', BENCH_DATA_DIR: benchDir },
      stdio: 'pipe',
    });
    for (const kind of ['anime', 'manga']) {
      const records = JSON.parse(fs.readFileSync(path.join(benchDir, `${kind}.json`), 'utf8')) as Media[];
      expect(records.length, kind).toBeGreaterThan(100);
      expect(rankProblems(records), kind).toEqual([]);
    }
  });
});
