/**
 * Core's main entry point lists what a host calls: at most 150 names. The response schemas, the
 * store interface and the upstream refresher are subpaths of their own, each published (package.json
 * `exports`, built by tsup, documented by typedoc).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const core = fileURLToPath(new URL('../', import.meta.url));
const ENTRIES = { '.': 'src/index.ts', './schemas': 'src/entry-schemas.ts', './store': 'src/entry-store.ts', './upstream': 'src/entry-upstream.ts' };

const files = Object.values(ENTRIES).map((file) => `${core}${file}`);
const program = ts.createProgram(files, { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true });
const checker = program.getTypeChecker();
const namesOf = (file: string) => checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(`${core}${file}`)!)!).map((symbol) => symbol.name);

describe("core's entry points", () => {
  it('the main one exports at most 150 names, none of them a zod schema', () => {
    const names = namesOf(ENTRIES['.']);
    expect(names.length).toBeGreaterThan(50);
    expect(names.length).toBeLessThanOrEqual(150);
    expect(names.filter((name) => /Schema$/.test(name))).toEqual(['errorEnvelopeSchema']);
  });

  it('the schemas are at @catalogue-api/core/schemas', () => {
    const names = namesOf(ENTRIES['./schemas']);
    expect(names).toEqual(expect.arrayContaining(['animeSchema', 'mangaSchema', 'statusSnapshotSchema']));
    expect(names.filter((name) => /Schema$/.test(name)).length).toBeGreaterThan(100);
  });

  it('no name stands for two different things in two of them', () => {
    const seen = new Map<string, ts.Symbol>();
    for (const [entry, file] of Object.entries(ENTRIES)) {
      for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(`${core}${file}`)!)!)) {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        const known = seen.get(symbol.name);
        if (known) expect(known === target, `${symbol.name} in ${entry}`).toBe(true);
        seen.set(symbol.name, target);
      }
    }
  });

  it('each is published, built and documented', () => {
    const pkg = JSON.parse(readFileSync(`${core}package.json`, 'utf8')) as { exports: Record<string, unknown> };
    const tsup = readFileSync(`${core}tsup.config.ts`, 'utf8');
    const typedoc = JSON.parse(readFileSync(`${core}typedoc.json`, 'utf8')) as { entryPoints: string[] };
    for (const [entry, file] of Object.entries(ENTRIES)) {
      expect(pkg.exports[entry], entry).toBeDefined();
      expect(tsup, entry).toContain(`'${file}'`);
      expect(typedoc.entryPoints, entry).toContain(file);
    }
  });
});
