import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import { eventually, startTestService } from '../../support/service.js';
import { otlpMetrics } from '../../support/otlp-builders.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('standalone service: LevelDB across restarts, graceful stop', function () {
  this.timeout(60_000);

  it('keeps every workload and its calibration across a restart on the same data directory', async () => {
    const dir = await makeTempDir('restart');
    try {
      const first = await startTestService({ dataDir: dir.path });
      const end = Date.now();
      for (const name of ['a', 'b', 'c']) {
        const points: [number, number][] = Array.from({ length: 200 }, (_, i) => [end - (200 - i) * 15_000, 0.3 + 0.01 * Math.sin(i)]);
        expect((await first.post('/v1/metrics', otlpMetrics({ namespace: 'shop', deployment: name }, { cpu_percent: points }), first.otlp)).status).to.equal(200);
      }
      await eventually(async () => {
        const list = (await first.get('/ruptures')).body as { ruptures: { status: string }[] };
        return list.ruptures.length === 3 && list.ruptures.every((r) => r.status === 'active') ? true : undefined;
      });
      await first.stop();

      const second = await startTestService({ dataDir: dir.path });
      const list = (await second.get('/ruptures')).body as { ruptures: { workload: { name: string }; status: string; calibration_progress: number }[] };
      expect(list.ruptures.map((r) => r.workload.name)).to.deep.equal(['a', 'b', 'c']);
      for (const r of list.ruptures) expect(r.calibration_progress).to.equal(100);
      // the raw tier kept every 15-second point of every series
      const raw = await second.server.context.store.rawPoints('shop/Deployment/a', 'cpu_percent', 0, Date.now());
      expect(raw).to.have.length(200);
      expect(raw[0]!.mean).to.be.closeTo(0.3, 1e-9);
      await second.stop();
    } finally {
      await dir.remove();
    }
  });

  it('answers /ready 200 once restored and exits 0 within 10 s of SIGTERM (the real process)', async () => {
    const dir = await makeTempDir('sigterm');
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'api-server/src/main.ts', '--port', '0', '--otlp-port', '0', '--otlp-http-port', '0', '--dashboard-port', '0', '--statsd-port', '0', '--grpc-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dir.path], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, SVC_LOG_LEVEL: 'info' },
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const port = await eventually(async () => {
        const line = out.split('\n').find((l) => l.includes('"ports"'));
        return line === undefined ? undefined : (JSON.parse(line) as { ports: { rest: number } }).ports.rest;
      }, 30_000, 'the listening log line');
      await eventually(async () => ((await fetch(`http://127.0.0.1:${port}/api/v2/ready`)).status === 200 ? true : undefined));
      const started = Date.now();
      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      const code = await exit;
      expect(code).to.equal(0);
      expect(Date.now() - started).to.be.lessThan(10_000);
      // the database was closed cleanly: it opens again at once
      const db = new ClassicLevel(dir.path);
      await db.open();
      await db.close();
    } finally {
      await dir.remove();
    }
  });

  it('refuses to start with an invalid setting, naming it in one line', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'api-server/src/main.ts', '--port', '99999'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).to.equal(2);
    expect(err.trim().split('\n')).to.have.length(1);
    expect(err).to.contain('--port="99999"').and.contain('65535');
  });
});
