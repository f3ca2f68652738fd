/**
 * What a settled service's ticks promote into V8's old generation, by allocating function: a
 * fresh service (this checkout's `npm start` settings, inspector on) gets W workloads × 6 metrics
 * × 400 steps over remote-write; once the backlog is stepped and SETTLE_S seconds (default 30)
 * more have passed, V8's sampling heap profiler runs for PROFILE_S seconds (default 60) counting
 * the objects that were still live at the end or collected by a major collection, not those a
 * scavenge collected (`includeObjectsCollectedByMinorGC: false`): what survived the young
 * generation. Printed by allocating function and by the first frame in api-server/.
 *
 * usage: [SETTLE_S=30] [PROFILE_S=60] node --import tsx bench/memory/promoted-profile.ts W
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { remoteWriteBody } from './remote-write-body.js';
import { freePort, getJson, postRetrying, startCommand, startService } from './processes.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  children: ProfileNode[];
}

const project = resolve(import.meta.dirname, '../..');
const W = Number(process.argv[2] ?? 1000);
const settleS = Number(process.env['SETTLE_S'] ?? 30);
const profileS = Number(process.env['PROFILE_S'] ?? 60);
const steps = 400;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const start = startCommand(join(project, 'package.json'));
const dir = mkdtempSync(join(tmpdir(), 'bench-promoted-'));
const inspectPort = await freePort();
const svc = await startService(project, dir, [...start.flags, `--inspect=127.0.0.1:${inspectPort}`], start.env);
try {
  for (let i = 0; i < 300 && (await getJson(svc.restPort, '/api/v2/ready'))['status'] !== 'ready'; i++) await sleep(1000);
  const t0 = Date.now() - steps * 15_000;
  for (let s = 0; s < steps; s++) await postRetrying(svc.restPort, '/api/v2/write', remoteWriteBody(W, s, t0 + s * 15_000));
  for (let i = 0; i < 900; i++) {
    const snaps = await Promise.all([0, W - 1].map((w) => getJson(svc.restPort, `/api/v2/rupture/mem/wl-${w}`)));
    if (snaps.every((x) => Date.parse(String(x['timestamp'])) >= t0 + (steps - 2) * 15_000)) break;
    await sleep(2000);
  }
  await sleep(settleS * 1000);
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((r) => ws.addEventListener('open', r, { once: true }));
  let id = 0;
  const pending = new Map<number, (result: unknown) => void>();
  ws.addEventListener('message', (e) => {
    const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
  });
  const call = (method: string, params: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise((r) => {
      id += 1;
      pending.set(id, r);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call('HeapProfiler.enable');
  await call('HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
  await sleep(profileS * 1000);
  const { profile } = (await call('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
  ws.close();
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let total = 0;
  const walk = (n: ProfileNode, stack: CallFrame[]): void => {
    const here = [...stack, n.callFrame];
    if (n.selfSize > 0) {
      total += n.selfSize;
      const f = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(api-server|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
      byFunction.set(f, (byFunction.get(f) ?? 0) + n.selfSize);
      const own = [...here].reverse().find((c) => c.url.includes('/api-server/'));
      const o = own === undefined ? '(no api-server frame)' : `${own.functionName || '(anonymous)'} ${own.url.replace(/^.*\/api-server\//, 'api-server/')}:${own.lineNumber + 1}`;
      byOwner.set(o, (byOwner.get(o) ?? 0) + n.selfSize);
    }
    for (const c of n.children) walk(c, here);
  };
  walk(profile.head, []);
  const perTick = (bytes: number): string => `${(bytes / (profileS / 15) / W / 1024).toFixed(2)} KB/wl/tick`;
  console.log(`${W} workloads: sampled ${(total / 1_048_576).toFixed(1)} MB promoted (live or collected by a major GC) in ${profileS} s: ${perTick(total)}`);
  console.log('by allocating function:');
  for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${perTick(v).padStart(18)} ${(v / 1_048_576).toFixed(1).padStart(7)} MB  ${k}`);
  console.log('by the innermost api-server frame:');
  for (const [k, v] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${perTick(v).padStart(18)} ${(v / 1_048_576).toFixed(1).padStart(7)} MB  ${k}`);
} finally {
  svc.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
