/**
 * Healthy behaviours: every one is a workload nobody should be paged for. Parameters are drawn
 * per workload from its PRNG stream; the shapes are the list (daily rhythm, high variance,
 * GC sawtooth, batch bursts, deploys with and without a context event, a chatty logger, low
 * traffic, gaps).
 */
import type { Prng } from './prng.js';
import { BUCKETS_PER_HOUR, HealthyBase, clamp01, type BucketSample, type WorkloadSpec } from './workload-model.js';

export const HEALTHY_BEHAVIOURS = ['daily', 'high_variance', 'gc_sawtooth', 'batch_bursts', 'deploy_with_context', 'deploy_silent', 'chatty_logger', 'low_traffic', 'gaps'] as const;
export type HealthyBehaviour = (typeof HEALTHY_BEHAVIOURS)[number];

export function healthyWorkload(behaviour: HealthyBehaviour, name: string, rng: Prng, totalBuckets: number): WorkloadSpec {
  const spec = (sample: (b: number) => BucketSample, contextBuckets: number[] = []): WorkloadSpec => ({
    name,
    behaviour,
    kind: 'healthy',
    startBucket: 0,
    endBucket: totalBuckets,
    failure: null,
    windows: [],
    contextBuckets,
    sample,
  });
  switch (behaviour) {
    case 'daily': {
      const base = new HealthyBase(rng);
      return spec((b) => base.draw(b, base.levels(b)));
    }
    case 'high_variance': {
      const base = new HealthyBase(rng, rng.between(2.5, 4));
      return spec((b) => base.draw(b, base.levels(b)));
    }
    case 'gc_sawtooth': {
      const base = new HealthyBase(rng);
      const period = rng.int(40, 160);
      const amp = rng.between(0.08, 0.25);
      const offset = rng.int(0, period - 1);
      return spec((b) => {
        const l = base.levels(b);
        const phase = ((b + offset) % period) / period;
        l.memory = base.memBase + amp * phase;
        if (phase < 1 / period) l.latencyMs *= 1.6;
        return base.draw(b, l);
      });
    }
    case 'batch_bursts': {
      const base = new HealthyBase(rng);
      const every = rng.int(2 * BUCKETS_PER_HOUR, 6 * BUCKETS_PER_HOUR);
      const length = rng.int(20, 80);
      const offset = rng.int(0, every - 1);
      const cpuUp = rng.between(0.2, 0.4);
      const latUp = rng.between(1.5, 2.5);
      return spec((b) => {
        const l = base.levels(b);
        if ((b + offset) % every < length) {
          l.cpu += cpuUp;
          l.latencyMs *= latUp;
          l.infoRate *= 2;
        }
        return base.draw(b, l);
      });
    }
    case 'deploy_with_context':
    case 'deploy_silent': {
      const base = new HealthyBase(rng);
      const deploys: { at: number; mem: number; cpu: number }[] = [];
      for (let at = rng.int(12, 36) * BUCKETS_PER_HOUR; at < totalBuckets; at += rng.int(24, 60) * BUCKETS_PER_HOUR) {
        deploys.push({ at, mem: rng.between(0.05, 0.15) * (rng.next() < 0.5 ? -1 : 1), cpu: rng.between(-0.05, 0.05) });
      }
      let mem = 0;
      let cpu = 0;
      let next = 0;
      return spec(
        (b) => {
          const d = deploys[next];
          if (d !== undefined && b >= d.at) {
            mem = d.mem;
            cpu = d.cpu;
            base.uptimeFrom = b;
            next += 1;
          }
          const l = base.levels(b);
          l.memory = clamp01(l.memory + mem);
          l.cpu = clamp01(l.cpu + cpu);
          // a restart logs a few warnings while it warms up
          if (base.uptimeFrom > 0 && b - base.uptimeFrom < 8) l.warnRate += 1;
          return base.draw(b, l);
        },
        behaviour === 'deploy_with_context' ? deploys.map((d) => d.at) : [],
      );
    }
    case 'chatty_logger': {
      const base = new HealthyBase(rng);
      const warn = rng.between(1.5, 5);
      const err = rng.between(0.05, 0.4);
      return spec((b) => {
        const l = base.levels(b);
        l.warnRate = warn * (0.7 + 0.6 * rng.next());
        l.errorLogRate = err;
        return base.draw(b, l);
      });
    }
    case 'low_traffic': {
      const base = new HealthyBase(rng);
      const spans = rng.between(0.1, 0.6);
      const logs = rng.between(0.2, 0.8);
      return spec((b) => {
        const l = base.levels(b);
        l.spanRate = spans;
        l.infoRate = logs;
        l.warnRate = 0.02;
        l.errorLogRate = 0.01;
        l.requestRate = 0.5;
        // a few requests: the odd one fails
        l.errorRate = 0.02;
        return base.draw(b, l);
      });
    }
    case 'gaps': {
      const base = new HealthyBase(rng);
      let gapUntil = -1;
      let nextGap = rng.int(BUCKETS_PER_HOUR, 4 * BUCKETS_PER_HOUR);
      return spec((b) => {
        if (b >= nextGap) {
          gapUntil = b + rng.int(8, 80);
          nextGap = gapUntil + rng.int(BUCKETS_PER_HOUR, 4 * BUCKETS_PER_HOUR);
        }
        const s = base.draw(b, base.levels(b));
        return b < gapUntil ? { ...s, metrics: null } : s;
      });
    }
  }
}
