/**
 * Who holds a heap snapshot's bytes: every node's self size is given to its owner, the nearest
 * object up its retaining path (a shortest path from the root, weak edges skipped) whose
 * constructor is one of the program's classes (not Object, Array, Map, Set, system or code), and
 * the edge out of that owner it hangs from: `RawPointBuckets.open`, `KpiRollup.acc`. The owners
 * are listed by bytes, per workload when told the count, with one retaining path of each.
 * Compare two sizes' outputs to tell what scales with workloads from fixed costs.
 *
 * usage: [TYPE=string] node --max-old-space-size=8000 --import tsx bench/memory/heap-owners.ts FILE.heapsnapshot [workloads] [rows]
 *
 * The snapshot is read as bytes (like heap-inventory.ts): its nodes and edges are scanned number
 * by number into typed arrays; the header and the string table are parsed as JSON.
 */
import { readFileSync } from 'node:fs';

interface Meta {
  node_fields: string[];
  node_types: [string[], ...unknown[]];
  edge_fields: string[];
  edge_types: [string[], ...unknown[]];
}

/** the numbers of the array that starts after `key` in `bytes`, as a typed array */
function numbers(bytes: Buffer, key: string, from: number): { values: Float64Array; end: number } {
  const at = bytes.indexOf(key, from);
  if (at < 0) throw new Error(`not a heap snapshot: no ${key}`);
  let values = new Float64Array(1 << 20);
  let n = 0;
  let value = -1;
  let i = at + key.length;
  for (; i < bytes.length; i += 1) {
    const c = bytes[i]!;
    if (c >= 48 && c <= 57) value = (value < 0 ? 0 : value * 10) + (c - 48);
    else {
      if (value >= 0) {
        if (n === values.length) {
          const grown = new Float64Array(values.length * 2);
          grown.set(values);
          values = grown;
        }
        values[n++] = value;
      }
      value = -1;
      if (c === 93) break; // ]
    }
  }
  return { values: values.subarray(0, n), end: i };
}

const onlyType = process.env['TYPE'];

interface Owner {
  bytes: number;
  nodes: number;
  /** one retaining path of one of its nodes */
  path: string;
}

/** the snapshot's self sizes by owner, and its total and unreachable bytes */
function owners(file: string): { owners: Map<string, Owner>; total: number; unreached: number } {
const bytes = readFileSync(file);
const nodesKey = bytes.indexOf('"nodes":[');
const meta = (JSON.parse(`${bytes.toString('utf8', 0, nodesKey).replace(/,\s*$/, '')}}`) as { snapshot: { meta: Meta } }).snapshot.meta;
const nodesRead = numbers(bytes, '"nodes":[', 0);
const edgesRead = numbers(bytes, '"edges":[', nodesRead.end);
const stringsKey = bytes.indexOf('"strings":[', edgesRead.end);
const strings = JSON.parse(bytes.toString('utf8', stringsKey + '"strings":'.length, bytes.lastIndexOf(']') + 1)) as string[];
const nodes = nodesRead.values;
const edges = edgesRead.values;

const nw = meta.node_fields.length;
const ew = meta.edge_fields.length;
const nType = meta.node_fields.indexOf('type');
const nName = meta.node_fields.indexOf('name');
const nSize = meta.node_fields.indexOf('self_size');
const nEdges = meta.node_fields.indexOf('edge_count');
const eType = meta.edge_fields.indexOf('type');
const eName = meta.edge_fields.indexOf('name_or_index');
const eTo = meta.edge_fields.indexOf('to_node');
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const count = nodes.length / nw;
const firstEdge = new Uint32Array(count + 1);
for (let i = 0, e = 0; i < count; i++) {
  firstEdge[i] = e;
  e += nodes[i * nw + nEdges]! * ew;
  firstEdge[i + 1] = e;
}
const weak = edgeTypes.indexOf('weak');
const shortcut = edgeTypes.indexOf('shortcut');
const elementOrHidden = new Set([edgeTypes.indexOf('element'), edgeTypes.indexOf('hidden')]);

// a shortest-path tree from the root (node 0): each node's parent and the edge it was reached by
const parent = new Int32Array(count).fill(-1);
const parentEdge = new Int32Array(count).fill(-1);
const queue = new Uint32Array(count);
let head = 0;
let tail = 0;
queue[tail++] = 0;
parent[0] = 0;
while (head < tail) {
  const n = queue[head++]!;
  for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += ew) {
    const t = edges[e + eType]!;
    if (t === weak || t === shortcut) continue;
    const to = edges[e + eTo]! / nw;
    if (parent[to] !== -1) continue;
    parent[to] = n;
    parentEdge[to] = e;
    queue[tail++] = to;
  }
}

const typeOf = (n: number): string => nodeTypes[nodes[n * nw + nType]!]!;
const nameOf = (n: number): string => strings[nodes[n * nw + nName]!]!;
const edgeLabel = (e: number): string => (elementOrHidden.has(edges[e + eType]!) ? `[${edges[e + eName]!}]` : String(strings[edges[e + eName]!]));
const generic = new Set(['Object', 'Array', 'Map', 'Set', 'WeakMap', 'Promise', 'Function', 'Float64Array', 'Float32Array', 'Uint8Array', 'Uint16Array', 'Uint32Array', 'Int32Array', 'ArrayBuffer', 'Buffer', 'Error', 'Date', 'RegExp']);
/** an object of one of the program's classes (or a closure's context, by its function) */
const isOwner = (n: number): boolean => {
  const t = typeOf(n);
  if (t !== 'object' && t !== 'closure') return false;
  const name = nameOf(n);
  return /^[A-Za-z_$][\w$]*$/.test(name) && !generic.has(name) && !name.startsWith('system');
};

const sums = new Map<string, { bytes: number; nodes: number; sample: number }>();
let unreached = 0;
let total = 0;
for (let n = 0; n < count; n++) {
  // TYPE=string (or any node type's part): only nodes of that type are counted
  if (onlyType !== undefined && !typeOf(n).includes(onlyType)) continue;
  const size = nodes[n * nw + nSize]!;
  total += size;
  if (parent[n] === -1) {
    unreached += size;
    continue;
  }
  // walk up to the nearest owner; the key is the owner's class and the edge out of it toward n
  let child = n;
  let up = parent[n]!;
  let key = '(root)';
  for (let steps = 0; child !== 0 && steps < 10_000; steps++) {
    if (isOwner(up)) {
      key = `${nameOf(up)}.${edgeLabel(parentEdge[child]!).replace(/^\[\d+\]$/, '[i]')}`;
      break;
    }
    child = up;
    up = parent[up]!;
  }
  const s = sums.get(key) ?? { bytes: 0, nodes: 0, sample: n };
  s.bytes += size;
  s.nodes += 1;
  sums.set(key, s);
}

/** one retaining path of `n`, root first, as `class.edge` steps */
function pathOf(n: number): string {
  const steps: string[] = [];
  for (let c = n; c !== 0 && steps.length < 40; c = parent[c]!) steps.push(`${nameOf(parent[c]!).slice(0, 40)}.${edgeLabel(parentEdge[c]!).slice(0, 40)}`);
  return steps.reverse().slice(-8).join(' > ');
}

const out = new Map<string, Owner>();
for (const [key, s] of sums) out.set(key, { bytes: s.bytes, nodes: s.nodes, path: `${typeOf(s.sample)} ${nameOf(s.sample).slice(0, 30)}: ${pathOf(s.sample)}` });
return { owners: out, total, unreached };
}

const args = process.argv.slice(2);
if (args[0] === undefined) throw new Error('usage: heap-owners.ts FILE.heapsnapshot [workloads] [rows] | A.heapsnapshot WA B.heapsnapshot WB [rows]');
if (args.length >= 4) {
  // the slope between two sizes: what each owner adds per workload
  const [fa, wa, fb, wb] = [args[0], Number(args[1]), args[2]!, Number(args[3])];
  const rows = Number(args[4] ?? 40);
  const a = owners(fa);
  const b = owners(fb);
  const per = (x: number, y: number): number => (y - x) / (wb - wa) / 1024;
  console.log(`total self size ${(a.total / 1_048_576).toFixed(1)} MB at ${wa}, ${(b.total / 1_048_576).toFixed(1)} MB at ${wb}: ${per(a.total, b.total).toFixed(2)} KB per workload`);
  const keys = new Set([...a.owners.keys(), ...b.owners.keys()]);
  const slopes = [...keys].map((k) => ({ k, slope: per(a.owners.get(k)?.bytes ?? 0, b.owners.get(k)?.bytes ?? 0), nodes: [a.owners.get(k)?.nodes ?? 0, b.owners.get(k)?.nodes ?? 0], path: (b.owners.get(k) ?? a.owners.get(k))!.path }));
  for (const s of slopes.sort((x, y) => Math.abs(y.slope) - Math.abs(x.slope)).slice(0, rows)) {
    console.log(`${s.slope.toFixed(3).padStart(9)} KB/wl  nodes ${String(s.nodes[0]).padStart(8)} -> ${String(s.nodes[1]).padStart(8)}  ${s.k}`);
    console.log(`${' '.repeat(20)}e.g. ${s.path}`);
  }
} else {
  const workloads = Number(args[1] ?? 1);
  const rows = Number(args[2] ?? 40);
  const { owners: sums, total, unreached } = owners(args[0]);
console.log(`total self size ${(total / 1_048_576).toFixed(1)} MB (${(total / 1024 / workloads).toFixed(1)} KB per workload of ${workloads}); unreachable from the root ${(unreached / 1_048_576).toFixed(1)} MB`);
for (const [key, s] of [...sums].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, rows)) {
  console.log(`${(s.bytes / 1024 / workloads).toFixed(2).padStart(9)} KB/wl ${(s.bytes / 1_048_576).toFixed(1).padStart(7)} MB ${String(s.nodes).padStart(9)}  ${key}`);
  console.log(`${' '.repeat(20)}e.g. ${s.path}`);
}
}
