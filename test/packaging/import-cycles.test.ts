/**
 * No import cycle in the packages' sources: every import (type-only ones too, and `export … from`)
 * between the files of `packages/*\/src`, read with the TypeScript compiler's parser, must
 * form a graph without cycles (strongly connected components of one file, no file importing itself);
 * and in `packages/core/src`, every import points down its groups (`CORE_GROUPS` below).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const packages = join(root, 'packages');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name) ? [path] : [];
  });
}

/** The file an import names: a relative `./x.js` is `./x.ts` (or `./x/index.ts`); `@catalogue-api/p` is that package's entry. */
function resolveImport(from: string, specifier: string): string | undefined {
  const pkg = /^@catalogue-api\/([\w-]+)$/.exec(specifier);
  if (pkg) return join(packages, pkg[1]!, 'src', 'index.ts');
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** Tarjan's strongly connected components; those of more than one file, or of a file importing itself, are cycles. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

const files = readdirSync(packages)
  .map((name) => join(packages, name, 'src'))
  .filter((dir) => existsSync(dir))
  .flatMap(sources);
/** What a file imports: `import`, `export … from`, `import type`, `import('…')` types and dynamic imports. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const graph = new Map(
  files.map((file) => {
    const targets = importsOf(file).map((specifier) => resolveImport(file, specifier)).filter((target): target is string => target !== undefined);
    return [file, [...new Set(targets)]] as const;
  }),
);

describe('the import graph of packages/*/src', () => {
  it('reads every source file and its imports', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get(join(packages, 'core', 'src', 'app.ts'))).toContain(join(packages, 'core', 'src', 'edge', 'http.ts'));
  });

  it('has no cycle', () => {
    expect(cyclesOf(graph).map((cycle) => cycle.map((file) => relative(root, file)))).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['a']]]))).toEqual([['a']]);
  });
});

/**
 * The groups of `packages/core/src`, lowest first (the README's "How core's source is laid out"):
 * a file imports its own group and lower ones only; groups of one rank do not import each other.
 * Files at the top of `src` (entry points and wiring) may import any group.
 */
const CORE_GROUPS: Readonly<Record<string, number>> = {
  internal: 0,
  schemas: 1,
  edge: 2,
  seam: 2,
  catalogue: 3,
  gateway: 4,
  status: 4,
  operations: 5,
  upstream: 6,
};
const coreSrc = join(packages, 'core', 'src');

/** The group of a file of core's sources (`undefined` for a file at the top of `src`). */
function groupOf(file: string): string | undefined {
  const parts = relative(coreSrc, file).split(/[\\/]/);
  return parts.length > 1 ? parts[0] : undefined;
}

/** The imports of core's sources that point up or sideways between groups. */
function wrongWay(edges: ReadonlyMap<string, readonly string[]>): string[] {
  return [...edges].flatMap(([from, targets]) => {
    const group = groupOf(from);
    if (group === undefined || !from.startsWith(coreSrc)) return [];
    return targets
      .filter((to) => to.startsWith(coreSrc))
      .filter((to) => {
        const other = groupOf(to);
        if (other === undefined) return true; // wiring is above every group
        if (other === group) return false;
        return CORE_GROUPS[other]! >= CORE_GROUPS[group]!;
      })
      .map((to) => `${relative(coreSrc, from)} -> ${relative(coreSrc, to)}`);
  });
}

describe('the groups of packages/core/src', () => {
  it('puts every folder of core in a group', () => {
    const folders = readdirSync(coreSrc).filter((name) => statSync(join(coreSrc, name)).isDirectory());
    expect(folders.filter((name) => !(name in CORE_GROUPS))).toEqual([]);
  });

  it('has every import point down to a lower group (or within its own)', () => {
    expect(wrongWay(graph)).toEqual([]);
  });

  it('finds an import that points up or sideways', () => {
    const at = (path: string) => join(coreSrc, path);
    const edges = new Map([
      [at('seam/types.ts'), [at('catalogue/kinds.ts'), at('schemas/common.ts')]],
      [at('gateway/cache.ts'), [at('status/types.ts'), at('edge/http.ts')]],
      [at('upstream/start.ts'), [at('app.ts')]],
    ]);
    expect(wrongWay(edges).map((line) => line.replaceAll('\\', '/'))).toEqual([
      'seam/types.ts -> catalogue/kinds.ts',
      'gateway/cache.ts -> status/types.ts',
      'upstream/start.ts -> app.ts',
    ]);
  });
});
