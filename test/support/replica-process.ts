/**
 * One api-server replica as a real child process (`node --import tsx api-server/src/main.ts`), so a
 * test can SIGKILL it, or run it with node flags of its own. Ports are ephemeral; they are read from the `listening` log line. The data
 * directory and the config file are the caller's, so a restart is the same replica.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { eventually } from './service.js';

export interface ReplicaProcess {
  api: string;
  /** the OTLP port's base URL */
  otlp: string;
  /** the process's log so far (pino JSON lines) */
  log(): string;
  /** sends the signal and resolves with the exit code (null when a signal ended it) */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startReplica(configFile: string, dataDir: string, env: Record<string, string> = {}, nodeFlags: readonly string[] = []): Promise<ReplicaProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', 'api-server/src/main.ts', '--port', '0', '--otlp-port', '0', '--otlp-http-port', '0', '--dashboard-port', '0', '--statsd-port', '0', '--grpc-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dataDir, '--tick-seconds', '0.2', '--config', configFile],
    // NODE_ENV explicit: an earlier in-process Vite build leaves NODE_ENV=production behind, which
    // would turn on the no-key-means-503 rule in the child
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'test', SVC_LOG_LEVEL: 'info', ...env } },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let port: number;
  let otlpPort: number;
  try {
    ({ rest: port, otlp: otlpPort } = await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`replica exited with ${child.exitCode}:\n${out.slice(-3000)}`);
      const line = out.split('\n').find((l) => l.includes('"ports"'));
      return line === undefined ? undefined : (JSON.parse(line) as { ports: { rest: number; otlp: number } }).ports;
    }, 60_000, 'the replica to listen'));
    await eventually(async () => ((await fetch(`http://127.0.0.1:${port}/api/v2/ready`)).status === 200 ? true : undefined), 30_000, 'the replica to be ready');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    api: `http://127.0.0.1:${port}/api/v2`,
    otlp: `http://127.0.0.1:${otlpPort}`,
    log: () => out,
    kill: async (signal: NodeJS.Signals = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * The `cluster:` section of a replica's YAML config (one line per entry): `topics` lists the
 * topic kinds to set, each named `<kind>-<suffix>` so every test run gets fresh topics.
 */
export function clusterConfigLines(opts: { bootstrap: string; replica: number; suffix: string; partitions: number; topics: readonly string[] }): string[] {
  return [
    'cluster:',
    '  enabled: true',
    `  brokers: ["${opts.bootstrap}"]`,
    `  replica_id: replica-${opts.replica}`,
    `  group: analysers-${opts.suffix}`,
    `  partitions: ${opts.partitions}`,
    '  checkpoint_seconds: 1',
    '  topics:',
    ...opts.topics.map((topic) => `    ${topic}: ${topic}-${opts.suffix}`),
  ];
}
