/**
 * The real service, in-process, on free loopback ports with a temporary LevelDB and a clock the
 * evaluation moves: a chunk of past telemetry is sent (traces, metrics, logs as three requests: run-eval.ts says why),
 * then the clock passes the bucket grace so the analysis takes the chunk whole.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadSettings } from '../../api-server/src/config/load-settings.js';
import { startServer, type RunningServer } from '../../api-server/src/server.js';

export const GRACE_MS = 1000;

export interface Reply {
  status: number;
  body: unknown;
}

export class ServiceDriver {
  private constructor(
    private readonly server: RunningServer,
    private readonly dataDir: string,
    readonly api: string,
    readonly otlp: string,
    /** the service's clock (its `now`) */
    private readonly clock: { ms: number },
  ) {}

  static async start(startMs: number): Promise<ServiceDriver> {
    const dataDir = await mkdtemp(join(tmpdir(), 'faultline-eval-alerts-'));
    const args = ['--port', '0', '--otlp-port', '0', '--otlp-http-port', '0', '--dashboard-port', '0', '--statsd-port', '0', '--grpc-port', '0', '--bind-address', '127.0.0.1'];
    args.push('--data-dir', dataDir, '--tick-seconds', '0.02', '--bucket-grace-seconds', String(GRACE_MS / 1000));
    const clock = { ms: startMs };
    const server = await startServer(loadSettings(args, {}), { logger: pino({ level: process.env['FAULTLINE_EVAL_LOG'] ?? 'silent' }), now: () => clock.ms });
    return new ServiceDriver(server, dataDir, `http://127.0.0.1:${server.ports.rest}/api/v2`, `http://127.0.0.1:${server.ports.otlp}`, clock);
  }

  /** sets the clock (never backwards) */
  set nowMs(ms: number) {
    this.clock.ms = Math.max(this.clock.ms, ms);
  }

  get nowMs(): number {
    return this.clock.ms;
  }

  async get(path: string): Promise<Reply> {
    const r = await fetch(`${this.api}${path}`, { headers: { accept: 'application/json' } });
    return { status: r.status, body: await r.json().catch(() => undefined) };
  }

  async post(url: string, body: unknown): Promise<Reply> {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`POST ${url}: ${r.status} ${text.slice(0, 300)}`);
    return { status: r.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  }

  async ingest(path: '/v1/metrics' | '/v1/logs' | '/v1/traces', body: unknown): Promise<void> {
    await this.post(`${this.otlp}${path}`, body);
  }

  /**
   * waits until every named workload's snapshot has reached `timeMs` (bounded: 600 s; the host may
   * be loaded), moving the clock one grace per poll
   */
  async waitProcessed(expected: ReadonlyMap<string, number>): Promise<void> {
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      const r = await this.get('/ruptures?limit=1000');
      const list = (r.body as { ruptures: { workload: { name: string }; timestamp: string }[] }).ruptures;
      const at = new Map(list.map((x) => [x.workload.name, Date.parse(x.timestamp)]));
      let done = true;
      for (const [name, t] of expected) if ((at.get(name) ?? -1) < t) done = false;
      if (done) return;
      // a bucket first found closed after the last clock move waits a grace from then: move on
      this.clock.ms += GRACE_MS;
      await new Promise((res) => setTimeout(res, 10));
    }
    throw new Error('the analysis did not reach the end of the chunk within 600 s');
  }

  async stop(): Promise<void> {
    await this.server.close();
    await rm(this.dataDir, { recursive: true, force: true });
  }
}
