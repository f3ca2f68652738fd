/**
 * Finds the repository's `proto/` folder from this module, whether it runs from source
 * (api-server/src/ingest) or from the build (dist/api-server/src/ingest).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function protoPath(relative: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i += 1) {
    const candidate = join(dir, 'proto', relative);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`proto file ${relative} not found above ${dirname(fileURLToPath(import.meta.url))}`);
}
