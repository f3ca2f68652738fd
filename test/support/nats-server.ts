/**
 * A real nats-server (Debian package `nats-server`) on a free loopback port with JetStream on and
 * its store in a temp folder; stop/start keep the port and the store, so JetStream data survives a
 * restart as it would in production. Missing binary: an error saying what to install (no skip).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, waitForPort } from './free-port.js';
import { makeTempDir } from './temp-dir.js';

export interface NatsServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

function binary(): string {
  const candidates = [process.env['NATS_SERVER'], '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];
  for (const c of candidates) if (c !== undefined && c !== '' && existsSync(c)) return c;
  throw new Error('nats-server not found: install the Debian package nats-server (hack/ci-prepare.sh does) or set NATS_SERVER');
}

export async function startNatsServer(): Promise<NatsServer> {
  const bin = binary();
  const dir = await makeTempDir('nats');
  const port = await freePort();
  const logFile = join(dir.path, 'nats.log');
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    child = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', join(dir.path, 'store'), '-l', logFile], { stdio: 'ignore' });
    const proc = child;
    try {
      await waitForPort(port, 10_000);
    } catch (error) {
      proc.kill('SIGKILL');
      throw new Error(`${(error as Error).message} (nats-server log: ${await readFile(logFile, 'utf8').catch(() => 'none')})`);
    }
  };
  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (proc === undefined || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  };
  await start();
  return { url: `nats://127.0.0.1:${port}`, port, start, stop, remove: async () => {
    await stop();
    await dir.remove();
  } };
}
