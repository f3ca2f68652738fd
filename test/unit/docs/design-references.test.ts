import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DESIGN_DOCS,
  type DesignDoc,
  type DocHeadings,
  brokenLinks,
  filesUnder,
  headingsOf,
  readText,
  referencesIn,
  unresolved,
} from './doc-references.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCE_DIRS = ['api-server', 'operator', 'dashboard', 'test', 'tools', 'bench', 'hack', 'crds', 'manifests', 'proto', 'docs'];
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.sh', '.yaml', '.yml', '.tpl', '.proto', '.md'];
/** this test and its helper show the reference forms as examples; they are not references */
const NOT_SCANNED = 'test/unit/docs/';
/** Files a link may name before they exist (none today). */
const ADDED_ELSEWHERE = new Set<string>();

function designHeadings(): Map<DesignDoc, DocHeadings> {
  const out = new Map<DesignDoc, DocHeadings>();
  for (const doc of DESIGN_DOCS) {
    const path = join(ROOT, 'docs/design', `${doc}.md`);
    if (existsSync(path)) out.set(doc, headingsOf(readFileSync(path, 'utf8')));
  }
  return out;
}

describe('design references: every § in the tree resolves to a heading of docs/design/', () => {
  describe('the reference reader', () => {
    it('reads qualified, bare, ranged and named references', () => {
      const text = [
        '/** fusion (analytics.md §4.3) and bands (§4.4) */',
        '// see `api.md` §6.5, §1.3-1.7 and operator §14-§15',
        '// (runtime.md "Time"), (runtime.md, Durability)',
        '// (interface "FusedR bands")',
      ].join('\n');
      const refs = referencesIn('api-server/src/x.ts', text).map((r) => `${r.line} ${r.doc} ${r.section ?? r.name ?? `contract ${r.contract}`}`);
      expect(refs).to.deep.equal([
        '1 analytics 4.3', '1 analytics 4.4',
        '2 api 6.5', '2 api 1.3', '2 api 1.7', '2 operator 14', '2 operator 15',
        '3 runtime Time', '3 runtime Durability',
        '4 api contract FusedR bands',
      ]);
    });

    it('gives a bare § the document cited before it, else the first one cited after, else the folder\'s', () => {
      const before = referencesIn('api-server/src/a.ts', '// operator.md §7.4\n// gates §9.3');
      expect(before[1]).to.include({ doc: 'operator', section: '9.3', line: 2 });
      const after = referencesIn('api-server/src/b.ts', '// §3.2 first\n// api.md §1.9');
      expect(after[0]).to.include({ doc: 'api', section: '3.2' });
      expect(referencesIn('operator/src/c.ts', '// (§9.4)')[0]).to.include({ doc: 'operator' });
      expect(referencesIn('api-server/src/d.ts', '// (§5.6)')[0]).to.include({ doc: 'analytics' });
      expect(referencesIn('api-server/src/http/e.ts', '// (§1.6)')[0]).to.include({ doc: 'api' });
      const inDesign = referencesIn('docs/design/operator.md', 'see analytics.md §9 and §9.2\nthen §9.3');
      expect(inDesign[1]).to.include({ doc: 'analytics', section: '9.2' });
      expect(inDesign[2]).to.include({ doc: 'operator', section: '9.3' });
    });

    it('reports a section without a heading, naming file and line', () => {
      const headings = headingsOf('# T\n## §4 Fusion\n### §4.3 Fusion rule\n### 4.4 Bands\n## Time\n| "FusedR bands" | §4.4 |');
      const ref = (section: string | undefined, name?: string) => ({ file: 'a.ts', line: 7, doc: 'analytics' as const, section, name });
      expect(unresolved(ref('4.3'), headings)).to.equal(undefined);
      expect(unresolved(ref('4.4'), headings)).to.equal(undefined);
      expect(unresolved(ref('4.31'), headings)).to.equal('a.ts:7: analytics.md §4.31 has no heading in docs/design/analytics.md');
      expect(unresolved(ref(undefined, 'Time'), headings)).to.equal(undefined);
      expect(unresolved(ref(undefined, 'Durability'), headings)).to.match(/^a\.ts:7: .*"Durability"/);
      expect(unresolved(ref('1'), undefined)).to.match(/does not exist/);
      const contract = (name: string) => ({ ...ref(undefined), contract: name });
      expect(unresolved(contract('FusedR bands'), headings)).to.equal(undefined);
      expect(unresolved(contract('Bands'), headings)).to.match(/contract's section "Bands"/);
    });

    it('reports relative links whose file is missing, outside code fences', () => {
      const md = '[ok](README.md) [web](https://x.io/a) [top](#x) `[a](code.md)`\n```\n[in fence](nope.md)\n```\n[bad](docs/nope.md#a)';
      expect(brokenLinks('README.md', md, ROOT)).to.deep.equal(['README.md:5: link to docs/nope.md#a does not resolve']);
      expect(brokenLinks('README.md', md, ROOT, new Set(['docs/nope.md']))).to.deep.equal([]);
    });
  });

  it('every § reference of the source tree names a heading of its design document', () => {
    const headings = designHeadings();
    expect([...headings.keys()]).to.have.members([...DESIGN_DOCS]);
    const problems: string[] = [];
    let count = 0;
    for (const file of filesUnder(ROOT, SOURCE_DIRS, SOURCE_EXTENSIONS)) {
      if (file.startsWith(NOT_SCANNED)) continue;
      for (const ref of referencesIn(file, readText(ROOT, file))) {
        count += 1;
        const why = unresolved(ref, headings.get(ref.doc));
        if (why !== undefined) problems.push(why);
      }
    }
    expect(count, 'references found').to.be.greaterThan(300);
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('every relative link of README.md and docs/ resolves', () => {
    const files = ['README.md', ...filesUnder(ROOT, ['docs'], ['.md'])];
    const problems = files.flatMap((f) => brokenLinks(f, readText(ROOT, f), ROOT, ADDED_ELSEWHERE));
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
