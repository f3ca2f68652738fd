import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the system temp folder; `remove` deletes it and everything inside. */
export async function makeTempDir(prefix: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `faultline-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
