/**
 * A heap snapshot's inventory: self size summed by node type and constructor/name, the largest
 * first, per workload when told the workload count. Typed arrays' storage shows as native nodes
 * (`system / JSArrayBufferData`).
 * usage: node --import tsx bench/memory/heap-inventory.ts FILE.heapsnapshot [workloads] [rows]
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

const [file, workloadsArg, rowsArg] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: heap-inventory.ts FILE.heapsnapshot [workloads] [rows]');
const workloads = Number(workloadsArg ?? 1);
const rows = Number(rowsArg ?? 30);
const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
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
