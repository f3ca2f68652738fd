/**
 * No source file over 400 lines (issue 34): a file that grows past it is split by responsibility
 * before it lands. Sources are the TypeScript and JavaScript of the service, the operator, the
 * dashboard, the tools, the benches and hack/ (tests are not counted).
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../../support/control-plane.js';

const MAX_LINES = 400;
const ROOTS = ['api-server/src', 'operator/src', 'dashboard/src', 'tools', 'bench', 'hack'];
const SOURCE = /\.(ts|tsx|mjs|js)$/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** lines as `wc -l` counts them when the last line ends with a newline, and the last line when it does not */
function linesOf(text: string): number {
  return text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe(`architecture: no source file over ${MAX_LINES} lines`, () => {
  it('counts a file\'s lines (a last line without a newline counts)', () => {
    expect(['', 'a', 'a\n', 'a\nb', 'a\nb\n', '\n\n'].map(linesOf)).to.deep.equal([0, 1, 1, 2, 2, 2]);
  });

  it(`every source file of ${ROOTS.join(', ')} has at most ${MAX_LINES} lines`, () => {
    const files = ROOTS.flatMap((root) => sources(join(REPO_ROOT, root)));
    expect(files.length).to.be.greaterThan(300);
    const over = files
      .map((f) => ({ file: relative(REPO_ROOT, f), lines: linesOf(readFileSync(f, 'utf8')) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(over, 'split these by responsibility').to.deep.equal([]);
  });
});
