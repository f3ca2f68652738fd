/**
 * The import graph between the folders of `api-server/src`, read from the import statements with
 * the TypeScript compiler's pre-processor (no type checking, about as fast as reading the files).
 *
 * A folder is the first path segment under `api-server/src`; a file directly in it (`server.ts`,
 * `main.ts`) is a unit of its own, named by the file. "a imports b" when any file of a imports
 * (`import`, `import type`, `export … from`, `import()`) a file of b. Only relative specifiers
 * are read: packages are outside the graph.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** one import that crosses folders: the importing file and the imported one, relative to the source root */
export interface CrossImport {
  from: string;
  to: string;
}

/** `from` folder → `to` folder → the imports that make the edge */
export type FolderGraph = Map<string, Map<string, CrossImport[]>>;

/** The relative module specifiers of one file's text. */
export function relativeSpecifiers(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith('./') || name.startsWith('../'));
}

/** The folder (first path segment) of a path relative to the source root; `.js` is read as the `.ts` it compiles from. */
export function folderOf(pathInRoot: string): string {
  const first = pathInRoot.split('/')[0]!;
  return first.endsWith('.js') ? `${first.slice(0, -3)}.ts` : first;
}

/** The graph of the given files: `files` maps a path relative to the root to its text. */
export function folderGraph(files: ReadonlyMap<string, string>): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const [file, text] of files) {
    const from = folderOf(file);
    for (const specifier of relativeSpecifiers(text)) {
      const target = join(dirname(file), specifier).split(sep).join('/');
      if (target.startsWith('..')) continue; // outside the source root
      const to = folderOf(target);
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, CrossImport[]>();
      graph.set(from, edges);
      const imports = edges.get(to) ?? [];
      edges.set(to, imports);
      imports.push({ from: file, to: target.replace(/\.js$/, '.ts') });
    }
  }
  return graph;
}

/** Every `.ts` file under `root`, by path relative to it, with its text. */
export function readSources(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) out.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(resolve(root));
  return out;
}

/** a pair of folders that import each other, the names in alphabetical order */
export type FolderPair = readonly [string, string];

export const pairKey = ([a, b]: FolderPair): string => `${a} ⇄ ${b}`;

/** The pairs of folders that import each other. */
export function mutualPairs(graph: FolderGraph): FolderPair[] {
  const pairs: FolderPair[] = [];
  for (const [a, edges] of graph) {
    for (const b of edges.keys()) if (a < b && graph.get(b)?.has(a) === true) pairs.push([a, b]);
  }
  return pairs.sort((x, y) => pairKey(x).localeCompare(pairKey(y)));
}

/**
 * A cycle of the graph without the edges of `ignored` pairs (both directions), as the list of
 * folders with the first repeated at the end; undefined when there is none.
 */
export function cycleWithout(graph: FolderGraph, ignored: readonly FolderPair[]): string[] | undefined {
  const skip = new Set(ignored.flatMap(([a, b]) => [`${a}\u0000${b}`, `${b}\u0000${a}`]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    path.push(node);
    for (const next of [...(graph.get(node)?.keys() ?? [])].sort()) {
      if (skip.has(`${node}\u0000${next}`)) continue;
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const found = visit(next);
        if (found !== undefined) return found;
      }
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.get(node) !== undefined) continue;
    const found = visit(node);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The imports that make `a` → `b`, one per line, for failure messages and the docs. */
export function describeEdge(graph: FolderGraph, a: string, b: string): string {
  return (graph.get(a)?.get(b) ?? []).map((i) => `  ${i.from} → ${i.to}`).join('\n');
}
