/**
 * A real Prometheus server (Debian package `prometheus`) on a free loopback port that scrapes
 * itself every second and remote-writes to a given URL. Missing binary: an error saying what to
 * install (no skip).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, waitForPort } from './free-port.js';
import { makeTempDir } from './temp-dir.js';

export interface PrometheusServer {
  url: string;
  /** the value of one of its own metrics (summed over its series), 0 when absent */
  selfMetric(name: string): Promise<number>;
  stop(): Promise<void>;
}

function binary(): string {
  const candidates = [process.env['PROMETHEUS'], '/usr/bin/prometheus', '/usr/local/bin/prometheus'];
  for (const c of candidates) if (c !== undefined && c !== '' && existsSync(c)) return c;
  throw new Error('prometheus not found: install the Debian package prometheus (hack/ci-prepare.sh does) or set PROMETHEUS');
}

export interface RemoteWriteTarget {
  url: string;
  bearer: string;
  /** labels added to every scraped series (the workload identity) */
  labels: Record<string, string>;
}

export async function startPrometheus(target: RemoteWriteTarget): Promise<PrometheusServer> {
  const bin = binary();
  const dir = await makeTempDir('prometheus');
  const port = await freePort();
  const config = {
    global: { scrape_interval: '1s', evaluation_interval: '1s' },
    scrape_configs: [{ job_name: 'prometheus', static_configs: [{ targets: [`127.0.0.1:${port}`], labels: target.labels }] }],
    remote_write: [{ url: target.url, authorization: { credentials: target.bearer }, queue_config: { batch_send_deadline: '1s', min_backoff: '100ms', max_backoff: '1s' } }],
  };
  const configFile = join(dir.path, 'prometheus.yml');
  await writeFile(configFile, JSON.stringify(config)); // JSON is YAML
  const child: ChildProcess = spawn(bin, [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir.path, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: 'ignore' });
  try {
    await waitForPort(port, 20_000);
  } catch (error) {
    child.kill('SIGKILL');
    await dir.remove();
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    selfMetric: async (name) => {
      const text = await (await fetch(`${url}/metrics`)).text();
      let sum = 0;
      for (const line of text.split('\n')) {
        if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
      }
      return sum;
    },
    stop: async () => {
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      await dir.remove();
    },
  };
}
