/**
 * A heap snapshot's inventory: self size summed by node type and constructor/name, the largest
 * first, per workload when told the workload count. Typed arrays' storage shows as native nodes
 * (`system / JSArrayBufferData`).
 * usage: node --import tsx bench/memory/heap-inventory.ts FILE.heapsnapshot [workloads] [rows]
 *
 * A snapshot is read as bytes, not as one string: one of a service at 1 000 full workloads is
 * 727 MB, beyond V8's longest string (512 MB). Its node array is scanned number by number; the
 * header and the string table are parsed as JSON.
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** the snapshot's meta, nodes and strings from its bytes (the edges and the rest are skipped) */
function loadSnapshot(bytes: Buffer): Snapshot {
  const nodesKey = bytes.indexOf('"nodes":[');
  const stringsKey = bytes.indexOf('"strings":[', nodesKey);
  if (nodesKey < 0 || stringsKey < 0) throw new Error('not a heap snapshot: no "nodes" or "strings"');
  const head = JSON.parse(`${bytes.toString('utf8', 0, nodesKey).replace(/,\s*$/, '')}}`) as Pick<Snapshot, 'snapshot'>;
  const nodes: number[] = [];
  let value = -1;
  for (let i = nodesKey + '"nodes":['.length; i < bytes.length; i += 1) {
    const c = bytes[i]!;
    if (c >= 48 && c <= 57) value = (value < 0 ? 0 : value * 10) + (c - 48);
    else {
      if (value >= 0) nodes.push(value);
      value = -1;
      if (c === 93) break; // ]
    }
  }
  const end = bytes.lastIndexOf(']');
  const strings = JSON.parse(bytes.toString('utf8', stringsKey + '"strings":'.length, end + 1)) as string[];
  return { snapshot: head.snapshot, nodes, strings };
}

const [file, workloadsArg, rowsArg] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: heap-inventory.ts FILE.heapsnapshot [workloads] [rows]');
const workloads = Number(workloadsArg ?? 1);
const rows = Number(rowsArg ?? 30);
const snap = loadSnapshot(readFileSync(file));
const fields = snap.snapshot.meta.node_fields;
const types = snap.snapshot.meta.node_types[0];
const width = fields.length;
const typeAt = fields.indexOf('type');
const nameAt = fields.indexOf('name');
const sizeAt = fields.indexOf('self_size');
const sums = new Map<string, { bytes: number; count: number }>();
let total = 0;
for (let i = 0; i < snap.nodes.length; i += width) {
  const type = types[snap.nodes[i + typeAt]!]!;
  let name = snap.strings[snap.nodes[i + nameAt]!]!;
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string') name = '(strings)';
  else if (type === 'number') name = '(heap numbers)';
  else if (name.length > 60) name = `${name.slice(0, 57)}...`;
  const key = `${type} / ${name}`;
  const size = snap.nodes[i + sizeAt]!;
  total += size;
  const s = sums.get(key) ?? { bytes: 0, count: 0 };
  s.bytes += size;
  s.count += 1;
  sums.set(key, s);
}
console.log(`total self size ${(total / 1_048_576).toFixed(1)} MB, ${(total / 1024 / workloads).toFixed(1)} KB per workload (${workloads})`);
for (const [key, s] of [...sums].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, rows)) {
  console.log(`${(s.bytes / 1024 / workloads).toFixed(2).padStart(9)} KB/wl ${(s.bytes / 1_048_576).toFixed(1).padStart(8)} MB ${String(s.count).padStart(9)}  ${key}`);
}
