/**
 * Comments, docs and scripts cite only what a reader of the repository can open: its own files, RFCs
 * and public URLs. This fails on a citation of something outside it: private notes by section, issue
 * numbers of a tracker the reader cannot see, folders beside the checkout, or `§` sections of
 * anything but an RFC named on the same line. Rules that come from the specification are in
 * docs/specification.md; cite that.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const self = 'test/packaging/citations.test.ts';

/** What may not be cited, each with what to write instead. */
const FORBIDDEN: Array<[RegExp, string]> = [
  [/\bnotes §/, 'private notes by section: cite docs/specification.md or a public URL'],
  [/\banchors(-notes)? [A-Z]\.\d/, 'private research notes: cite docs/specification.md or a public URL'],
  [/\.\.\/shared\b/, 'a folder outside the repository: name the files and where their origins are listed'],
  [/\b[Ii]ssue #?\d+/, 'an issue number: say what the rule is, or cite the doc that states it'],
  [/\bperformance baselines\b/, 'a document outside the repository: cite docs/benchmarks.md'],
];

/** A `§N` is an RFC's section only when an RFC is named before it on the same line. */
function strayParagraphSigns(line: string): boolean {
  for (const m of line.matchAll(/§\s?\d/g)) {
    if (!/RFC \d+/.test(line.slice(0, m.index))) return true;
  }
  return false;
}

it('no comment, doc or script cites what a reader of the repository cannot open', () => {
  const files = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'packages', 'examples', 'docs', 'scripts', 'bench', 'test', '.changeset', 'README.md'],
    { cwd: root, encoding: 'utf8' },
  )
    .split('\n')
    .filter((f) => f && f !== self && /\.(ts|mts|cts|js|mjs|cjs|md|json)$/.test(f) && !/\/(dist|node_modules)\//.test(f));
  const found: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(`${root}${file}`, 'utf8');
    } catch {
      continue; // deleted in the working tree
    }
    text.split('\n').forEach((line, i) => {
      for (const [pattern, instead] of FORBIDDEN) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${instead}\n    ${line.trim()}`);
      if (strayParagraphSigns(line)) found.push(`${file}:${i + 1}: a § section of something not named as an RFC\n    ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
});
