/**
 * A real OpenTelemetry Collector for the tests: the `otelcol` that hack/build-otelcol.sh builds
 * from Go modules into the cache (CI builds it in hack/ci-prepare.sh; here it is built when the
 * cache lacks it), started with a YAML configuration written to a temporary directory.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { makeTempDir } from './temp-dir.js';

const HACK = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'hack');

export interface RunningCollector {
  /** what the collector wrote to stderr so far (its log) */
  log(): string;
  /** SIGTERM, then SIGKILL after 10 s; removes the configuration directory */
  stop(): Promise<void>;
}

/** The cached otelcol binary, built first when missing (minutes on two cores). */
export async function ensureOtelcol(): Promise<string> {
  const path = execFileSync('bash', [join(HACK, 'tool-path.sh'), 'otelcol'], { encoding: 'utf8' }).trim();
  if (existsSync(path)) return path;
  await new Promise<void>((done, fail) => {
    execFile('bash', [join(HACK, 'build-otelcol.sh')], { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) =>
      error === null ? done() : fail(new Error(`hack/build-otelcol.sh failed: ${error.message}\n${stderr.slice(-4000)}`)),
    );
  });
  return path;
}

export async function startCollector(binary: string, config: Record<string, unknown>): Promise<RunningCollector> {
  const dir = await makeTempDir('otelcol');
  const file = join(dir.path, 'config.yaml');
  writeFileSync(file, stringify(config));
  const child = spawn(binary, ['--config', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    log = (log + chunk).slice(-256 * 1024);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    log: () => log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      await dir.remove();
    },
  };
}
