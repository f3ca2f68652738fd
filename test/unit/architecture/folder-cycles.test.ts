/**
 * No new cycle between the folders of api-server/src (issue 34: "no pair of folders under
 * api-server/src imports each other"). The pairs that import each other today are the BASELINE:
 * the test fails when a pair not in it appears, and when a pair in it no longer imports each
 * other (remove its entry then), so the list only shrinks. Apart from those pairs the folder graph
 * must have no cycle at all. docs/architecture-cycles.md is the to-do list of the moves that break
 * each pair.
 */
import { expect } from 'chai';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type FolderPair,
  cycleWithout,
  describeEdge,
  folderGraph,
  folderOf,
  mutualPairs,
  pairKey,
  readSources,
  relativeSpecifiers,
} from './folder-imports.js';

const SOURCE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../api-server/src');

/** Today's pairs of folders that import each other, alphabetical; each entry names the imports that cause it. */
const BASELINE: readonly FolderPair[] = [];

describe('architecture: folders of api-server/src do not import each other in cycles', () => {
  describe('the import reader', () => {
    it('reads import, import type, export-from and import() specifiers, and only relative ones', () => {
      const text = [
        "import { a } from './a.js';",
        "import type { B } from '../b/b.js';",
        "export { c } from '../c/c.js';",
        "export * from './d.js';",
        "const e = await import('../e/e.js');",
        "import Koa from 'koa';",
        "import { readFileSync } from 'node:fs';",
        "// import { f } from '../f/f.js';",
      ].join('\n');
      expect(relativeSpecifiers(text)).to.deep.equal(['./a.js', '../b/b.js', '../c/c.js', './d.js', '../e/e.js']);
    });

    it('names a folder by its first segment and a top-level file by its .ts name', () => {
      expect(folderOf('http/render/action-json.ts')).to.equal('http');
      expect(folderOf('server.js')).to.equal('server.ts');
      expect(folderOf('main.ts')).to.equal('main.ts');
    });

    it('finds a pair, a longer cycle, and no cycle once the pair is set aside', () => {
      const graph = folderGraph(
        new Map([
          ['a/x.ts', "import { y } from '../b/y.js';"],
          ['b/y.ts', "import type { X } from '../a/deep/x.js';\nimport { z } from '../c/z.js';"],
          ['c/z.ts', "import { s } from '../server.js';"],
          ['server.ts', "import { y } from './b/inner/y.js';"],
        ]),
      );
      expect(mutualPairs(graph).map(pairKey)).to.deep.equal(['a ⇄ b']);
      expect(describeEdge(graph, 'b', 'a')).to.equal('  b/y.ts → a/deep/x.ts');
      // b → c → server.ts → b is a cycle of three, not a pair
      expect(cycleWithout(graph, [['a', 'b']])).to.deep.equal(['b', 'c', 'server.ts', 'b']);
      const pairOnly = folderGraph(new Map([['a/x.ts', "import { y } from '../b/y.js';"], ['b/y.ts', "import { x } from '../a/x.js';"]]));
      expect(cycleWithout(pairOnly, [])).to.deep.equal(['a', 'b', 'a']);
      expect(cycleWithout(pairOnly, [['a', 'b']])).to.equal(undefined);
    });
  });

  describe('api-server/src', () => {
    const graph = folderGraph(readSources(SOURCE_ROOT));
    const baseline = new Set(BASELINE.map(pairKey));
    const today = mutualPairs(graph);

    it('reads the real tree (the sidecar imports its folders from server.ts)', () => {
      expect([...(graph.get('server.ts')?.keys() ?? [])]).to.include.members(['analysis', 'http', 'ingest', 'pipeline']);
    });

    it('has no pair of folders importing each other that is not in the baseline', () => {
      const added = today.filter((p) => !baseline.has(pairKey(p)));
      const report = added.map(([a, b]) => `${pairKey([a, b])}\n${describeEdge(graph, a, b)}\n${describeEdge(graph, b, a)}`);
      expect(report, `new cycles between folders: move the shared code to a folder both may import\n${report.join('\n')}`).to.deep.equal([]);
    });

    it('still has every baseline pair (an entry whose cycle is broken is removed from BASELINE and the doc)', () => {
      const current = new Set(today.map(pairKey));
      const broken = BASELINE.filter((p) => !current.has(pairKey(p))).map(pairKey);
      expect(broken, 'these pairs no longer import each other: remove them from BASELINE and docs/architecture-cycles.md').to.deep.equal([]);
    });

    it('keeps model/ (the shared vocabulary) free of imports of other folders', () => {
      const out = [...(graph.get('model')?.keys() ?? [])].map((to) => describeEdge(graph, 'model', to));
      expect(out, 'model/ is imported by every folder, so it may import none').to.deep.equal([]);
    });

    it('has no longer cycle once the baseline pairs are set aside', () => {
      const cycle = cycleWithout(graph, BASELINE);
      const edges = (cycle ?? []).slice(1).map((to, i) => `${cycle![i]} → ${to}\n${describeEdge(graph, cycle![i]!, to)}`);
      expect(cycle, `a cycle between folders:\n${edges.join('\n')}`).to.equal(undefined);
    });
  });
});
