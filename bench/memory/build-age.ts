/**
 * Whether a checkout's build (`dist/`) is older than its sources: the memory benches start the
 * service from `dist/api-server/src/main.js`, so a build older than the last edit measures other
 * code than the checkout's (`npm run bench:memory` builds first; `node bench/memory.ts` does not).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** the newest `.ts` file under `dir` (recursively) and its modification time in ms; undefined when none */
function newestSource(dir: string): { file: string; mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const mtimeMs = statSync(file).mtimeMs;
    if (newest === undefined || mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  return newest;
}

/** why `project`'s build cannot be measured as its sources (missing, or older than a source file), or undefined when it can */
export function staleBuild(project: string): string | undefined {
  const main = join(project, 'dist', 'api-server', 'src', 'main.js');
  let built: number;
  try {
    built = statSync(main).mtimeMs;
  } catch {
    return `${main} does not exist: run \`npm run build\` in ${project} (or \`npm run bench:memory\`, which builds)`;
  }
  const source = newestSource(join(project, 'api-server', 'src'));
  if (source !== undefined && source.mtimeMs > built) {
    return `${main} (built ${new Date(built).toISOString()}) is older than ${source.file} (${new Date(source.mtimeMs).toISOString()}): run \`npm run build\` in ${project} (or \`npm run bench:memory\`, which builds)`;
  }
  return undefined;
}
