/**
 * The source stays a clean stack: no import cycles, and no import that runs
 * upward against the layer order written in docs/architecture.md. Imports are
 * read with the TypeScript compiler's own pre-processor (static, dynamic and
 * type-only imports alike), so the check needs no build.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Bottom first: a folder may import its own files and the folders before it, never those after it. */
const LAYERS = ['core', 'dialects', 'storage', 'tasks', 'upstreams', 'config', 'routing', 'billing', 'observe', 'http', 'pipeline', 'families', 'admin', 'server', 'cli', 'main.ts'];
/** The folder under upstreams/ holding one folder per dialect an upstream speaks; every other folder there is a provider (a channel type). */
const PROTOCOLS = 'protocols';
/** Declarations for untyped packages; nothing imports them. */
const IGNORED = ['types'];

const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** File (relative to src) → the files it imports (relative to src). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => path.relative(SRC, path.resolve(path.dirname(file), specifier)).replace(/\.js$/, '.ts'));
    graph.set(path.relative(SRC, file), targets);
  }
  return graph;
}

const layerOf = (file: string) => LAYERS.indexOf(file.split('/')[0]);

/** Every strongly connected group of more than one file (Tarjan), plus files importing themselves. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the source layers', () => {
  const graph = importGraph();

  it('resolves every relative import to a source file', () => {
    const missing = [...graph].flatMap(([file, targets]) => targets.filter((target) => !graph.has(target)).map((target) => `${file} -> ${target}`));
    expect(missing).toEqual([]);
  });

  it('places every top-level folder in the layer order', () => {
    const unplaced = [...new Set([...graph.keys()].map((file) => file.split('/')[0]))].filter((top) => !LAYERS.includes(top) && !IGNORED.includes(top));
    expect(unplaced).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps each family and each upstream to itself: none imports another (shared vocabulary lives in dialects/)', () => {
    const sideways = [...graph].flatMap(([file, targets]) => {
      const [top, own] = file.split('/');
      if (top !== 'families' && top !== 'upstreams') return [];
      return targets
        .filter((target) => {
          const [targetTop, targetOwn] = target.split('/');
          // Files directly under upstreams/ (types, http, the registry) are shared by every upstream; protocols/ has its own rules below.
          return targetTop === top && targetOwn !== own && targetOwn !== PROTOCOLS && target.split('/').length > 2 && file.split('/').length > 2;
        })
        .map((target) => `${file} -> ${target}`);
    });
    expect(sideways).toEqual([]);
  });

  it('keeps each upstream protocol to itself: a protocol imports no provider and no other protocol (providers may import protocols)', () => {
    const crossing = [...graph].flatMap(([file, targets]) => {
      const [top, folder, protocol] = file.split('/');
      if (top !== 'upstreams' || folder !== PROTOCOLS) return [];
      return targets
        .filter((target) => {
          const parts = target.split('/');
          if (parts[0] !== 'upstreams' || parts.length <= 2) return false;
          return parts[1] !== PROTOCOLS || parts[2] !== protocol;
        })
        .map((target) => `${file} -> ${target}`);
    });
    expect(crossing).toEqual([]);
  });

  it('places every upstream protocol file in a protocol folder', () => {
    expect([...graph.keys()].filter((file) => file.startsWith(`upstreams/${PROTOCOLS}/`) && file.split('/').length !== 4)).toEqual([]);
    expect([...graph.keys()].filter((file) => file.startsWith(`upstreams/${PROTOCOLS}/`)).length).toBeGreaterThan(40);
  });

  it('has no import that runs upward', () => {
    const upward = [...graph].flatMap(([file, targets]) => targets.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${file} -> ${target}`));
    expect(upward).toEqual([]);
  });

  it('finds a cycle and an upward import when there is one', () => {
    const sample = new Map([
      ['core/a.ts', ['core/b.ts']],
      ['core/b.ts', ['core/a.ts']],
      ['routing/c.ts', []],
    ]);
    expect(cycles(sample)).toEqual([['core/a.ts', 'core/b.ts']]);
    expect(layerOf('routing/c.ts')).toBeGreaterThan(layerOf('core/a.ts'));
  });
});
