/**
 * The partition of a workload key, the same on every replica and for both topics: FNV-1a (32 bit)
 * of the key's UTF-16 code units, modulo the partition count. Telemetry and state records of one
 * workload are written to the same partition number explicitly, so the owner of telemetry
 * partition p restores exactly the workloads of state partition p.
 */
export function partitionOf(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % partitions;
}
