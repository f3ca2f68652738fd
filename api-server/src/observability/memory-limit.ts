/**
 * The memory limit the service runs under: the setting when given (SVC_MEMORY_LIMIT_BYTES), else
 * its container's cgroup limit (v2 `memory.max`, v1 `memory/memory.limit_in_bytes`), else none.
 * A cgroup v1 "unlimited" is a page-rounded 2^63 - 1; anything at or above 2^62 bytes is read as
 * no limit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type MemoryLimitSource = 'setting' | 'cgroup-v2' | 'cgroup-v1' | 'none';

export interface MemoryLimit {
  /** bytes; undefined: no limit known */
  bytes: number | undefined;
  source: MemoryLimitSource;
}

const UNLIMITED_FROM = 2 ** 62;

function readTrimmed(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** a cgroup file's limit in bytes; undefined for "max", a missing file or an effectively unlimited value */
export function parseCgroupLimit(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const bytes = Number(text);
  return bytes > 0 && bytes < UNLIMITED_FROM ? bytes : undefined;
}

/** the cgroup limit under `root` (default /sys/fs/cgroup): v2 first, then v1 */
export function cgroupMemoryLimit(root = '/sys/fs/cgroup'): MemoryLimit {
  const v2 = parseCgroupLimit(readTrimmed(join(root, 'memory.max')));
  if (v2 !== undefined) return { bytes: v2, source: 'cgroup-v2' };
  const v1 = parseCgroupLimit(readTrimmed(join(root, 'memory', 'memory.limit_in_bytes')));
  if (v1 !== undefined) return { bytes: v1, source: 'cgroup-v1' };
  return { bytes: undefined, source: 'none' };
}

/** the setting when given, else the cgroup's */
export function resolveMemoryLimit(settingBytes: number | undefined, root?: string): MemoryLimit {
  if (settingBytes !== undefined) return { bytes: settingBytes, source: 'setting' };
  return cgroupMemoryLimit(root);
}
