import { expect } from 'chai';
import { eventually, useTestService } from '../../support/service.js';
import { otlpMetrics } from '../../support/otlp-builders.js';

interface Frame {
  id: string | undefined;
  data: { type: string; workload?: string; id?: string; rupture_id?: string | null };
}

/** Reads SSE frames from a fetch() body (the dashboard does the same: EventSource cannot send headers). */
async function readFrames(url: string, headers: Record<string, string>, until: (frames: Frame[]) => boolean, timeoutMs: number): Promise<Frame[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const frames: Frame[] = [];
  try {
    const r = await fetch(url, { headers, signal: controller.signal });
    expect(r.headers.get('content-type')).to.contain('text/event-stream');
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data !== undefined) frames.push({ id, data: JSON.parse(data) as Frame['data'] });
      }
      if (until(frames)) break;
    }
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return frames;
}

describe('live events (SSE) and anomalies over HTTP', function () {
  this.timeout(120_000);
  const svc = useTestService({ args: ['--edition', 'autopilot'] });

  it('streams band events with ids; a reconnect with Last-Event-ID resumes after it; the JSON fallback lists them', async () => {
    const reading = readFrames(`${svc.api}/events`, {}, (f) => f.some((x) => x.data.type !== 'connected' && x.data.workload === 'demo/Deployment/sse'), 100_000);
    expect((await svc.post('/sim/inject', { pattern: 'cascade-failure', host: 'demo/sse', duration_minutes: 2 })).status).to.equal(202);
    const frames = await reading;
    expect(frames[0]!.data.type).to.equal('connected');
    const band = frames.find((f) => f.data.workload === 'demo/Deployment/sse')!;
    expect(['warning', 'critical', 'emergency']).to.include(band.data.type);
    expect(band.id).to.match(/^ev_\d{6}$/);
    expect(band.data.rupture_id).to.match(/^r_/);

    const json = (await fetch(`${svc.api}/events`, { headers: { accept: 'application/json' } }).then((r) => r.json())) as { events: { id: string }[] };
    expect(json.events.map((e) => e.id)).to.include(band.id);

    // a second band event, then a resume from the first id replays only what came after it
    await eventually(async () => ((await fetch(`${svc.api}/events`, { headers: { accept: 'application/json' } }).then((r) => r.json())) as { events: unknown[] }).events.length >= 1 || undefined);
    const all = (await fetch(`${svc.api}/events?limit=1000`, { headers: { accept: 'application/json' } }).then((r) => r.json())) as { events: { id: string }[] };
    const oldestFirst = [...all.events].reverse();
    const resumed = await readFrames(`${svc.api}/events`, { 'last-event-id': oldestFirst[0]!.id }, (f) => f.length >= oldestFirst.length, 3000);
    const replayed = resumed.filter((f) => f.id !== undefined).map((f) => f.id);
    expect(replayed).to.deep.equal(oldestFirst.slice(1).map((e) => e.id));
  });

  it('anomalies: listed newest first with the contract fields, per workload, since and limit validated', async () => {
    const t0 = Date.now() - 40 * 60_000;
    const points: [number, number][] = Array.from({ length: 140 }, (_, i) => [t0 + i * 15_000, i === 139 ? 0.95 : 0.3 + 0.002 * Math.sin(i)]);
    await svc.post('/v1/metrics', otlpMetrics({ namespace: 'anm', deployment: 'spiky' }, { cpu_percent: points }), svc.otlp);
    const list = await eventually(async () => {
      const r = (await svc.get(`/anomalies/anm/Deployment/spiky?since=${new Date(t0).toISOString()}`)).body as { anomalies: Record<string, unknown>[] };
      return r.anomalies.length > 0 ? r.anomalies : undefined;
    }, 30_000, 'an anomaly on the spike');
    const a = list[0]!;
    expect(a).to.include.keys('id', 'host', 'method', 'severity', 'value', 'consensus', 'timestamp');
    expect(a['id']).to.match(/^anm_[0-9a-f]{12}$/);
    expect(a['host']).to.equal('anm/Deployment/spiky');
    expect((await svc.get('/anomalies?since=yesterday')).status).to.equal(400);
    expect((await svc.get('/anomalies?limit=0')).status).to.equal(400);
    expect((await svc.get('/anomalies/anm/Deployment/none')).status).to.equal(404);
    const future = (await svc.get(`/anomalies?since=${new Date(Date.now() + 3_600_000).toISOString()}`)).body as { anomalies: unknown[] };
    expect(future.anomalies).to.deep.equal([]);
  });
});
