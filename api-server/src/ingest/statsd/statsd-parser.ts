/**
 * StatsD / DogStatsD lines: `<metric>:<value>|<type>[|@<rate>][|#<tag>:<value>,...][|T<unix seconds>]`,
 * several per datagram separated by newlines. Types: `g` gauge (a leading `+`/`-` is a delta on
 * the last value of that gauge), `c` counter (divided by the sample rate), `ms`/`h`/`d` timings and
 * distributions (milliseconds), `s` set (distinct members per 15-second bucket). Tags `namespace`,
 * `service`, `deployment`, `kind`, `host` (and the other label rules of api.md §1.9) give the
 * workload. A bad line is counted and skipped; nothing here throws.
 */
import { resolveFromLabels } from '../identity.js';
import type { MetricRecord } from '../../model/records.js';

const MAX_SERIES = 50_000;

export interface StatsdResult {
  metrics: MetricRecord[];
  badLines: number;
}

export class StatsdParser {
  private readonly gauges = new Map<string, number>();
  private readonly sets = new Map<string, { bucket: number; members: Set<string> }>();

  /** Parses one datagram at server time `nowMs`. */
  parse(datagram: string, nowMs: number): StatsdResult {
    const out: StatsdResult = { metrics: [], badLines: 0 };
    for (const raw of datagram.split('\n')) {
      const line = raw.trim();
      if (line === '') continue;
      if (!this.parseLine(line, nowMs, out.metrics)) out.badLines += 1;
    }
    return out;
  }

  private parseLine(line: string, nowMs: number, out: MetricRecord[]): boolean {
    const parts = line.split('|');
    const head = parts[0] as string;
    const colon = head.lastIndexOf(':');
    if (colon <= 0 || parts.length < 2) return false;
    const name = head.slice(0, colon);
    const valueText = head.slice(colon + 1);
    const type = parts[1] as string;
    let rate = 1;
    let timeMs = nowMs;
    const tags = new Map<string, string>();
    for (const part of parts.slice(2)) {
      if (part.startsWith('@')) {
        rate = Number(part.slice(1));
        if (!(rate > 0 && rate <= 1)) return false;
      } else if (part.startsWith('#')) {
        for (const tag of part.slice(1).split(',')) {
          if (tag === '') continue;
          const i = tag.indexOf(':');
          if (i === -1) tags.set(tag, '');
          else tags.set(tag.slice(0, i), tag.slice(i + 1));
        }
      } else if (part.startsWith('T')) {
        const seconds = Number(part.slice(1));
        if (!Number.isFinite(seconds)) return false;
        timeMs = seconds * 1000;
      } else if (part.startsWith('c:') || part.startsWith('e:')) {
        // DogStatsD container id / external data: not an identity here
      } else {
        return false;
      }
    }
    const identity = resolveFromLabels((n) => tags.get(n));
    if (identity === undefined) return false;
    const series = `${identity.workload}|${identity.pod ?? ''}|${name}`;
    switch (type) {
      case 'g': {
        const delta = valueText.startsWith('+') || valueText.startsWith('-');
        const v = Number(valueText);
        if (valueText === '' || !Number.isFinite(v)) return false;
        const value = delta ? (this.gauges.get(series) ?? 0) + v : v;
        remember(this.gauges, series, value);
        out.push({ workload: identity.workload, pod: identity.pod, name, value, timeMs });
        return true;
      }
      case 'c': {
        const v = Number(valueText);
        if (valueText === '' || !Number.isFinite(v)) return false;
        out.push({ workload: identity.workload, pod: identity.pod, name, value: v / rate, timeMs });
        return true;
      }
      case 'ms':
      case 'h':
      case 'd': {
        const v = Number(valueText);
        if (valueText === '' || !Number.isFinite(v)) return false;
        out.push({ workload: identity.workload, pod: identity.pod, name, value: v, timeMs });
        return true;
      }
      case 's': {
        const bucket = Math.floor(timeMs / 15_000);
        let set = this.sets.get(series);
        if (set === undefined || set.bucket !== bucket) {
          set = { bucket, members: new Set() };
          remember(this.sets, series, set);
        }
        if (set.members.size < 100_000) set.members.add(valueText);
        out.push({ workload: identity.workload, pod: identity.pod, name, value: set.members.size, timeMs });
        return true;
      }
      default:
        return false;
    }
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_SERIES) map.delete(map.keys().next().value as string);
}
