/**
 * Alertmanager sink: `POST {url}/api/v2/alerts` (the API Prometheus itself uses) with one alert per
 * rupture, labelled so a routing tree can match it:
 *
 *   labels:      alertname=WorkloadRupture, namespace, kind, workload (the name), severity
 *                (warning | critical | emergency), rupture_id
 *   annotations: summary (the band message), narrative, fused_r
 *   startsAt:    when the rupture's first event was sent; endsAt: see below; generatorURL optional
 *
 * Alertmanager resolves an alert whose endsAt has passed and, for an alert sent without one,
 * after its resolve_timeout unless it is sent again. Faultline sends on changes only, so a firing
 * alert carries endsAt = now + 24 h (it stays firing without re-sends), and the change that ends
 * it sends the same labels with endsAt = the change time: on `recovered`, and for the old severity
 * when the rupture moves to another band (the new severity is a new alert with the same
 * rupture_id). Alerts are matched by identical labels, so the sink remembers the last severity of
 * each rupture (bounded to 4096 ruptures); a recovery of a rupture it does not remember (after a
 * restart) resolves all three severities.
 */
import type { Envelope, RupturePayload } from '../envelope.js';
import { BoundedMap } from './bounded-map.js';
import { postJson } from './post-json.js';
import type { Sink } from './sink.js';

export interface AlertmanagerSinkOptions {
  url: string;
  generatorUrl?: string | undefined;
  timeoutMs: number;
}

export interface AlertmanagerAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL?: string;
}

const FIRING_FOR_MS = 24 * 3_600_000;
const SEVERITIES = ['warning', 'critical', 'emergency'] as const;

interface Firing {
  severity: string;
  startsAt: string;
}

export class AlertmanagerSink implements Sink {
  readonly name = 'alertmanager';
  private readonly firing = new BoundedMap<string, Firing>(4096);

  constructor(private readonly options: AlertmanagerSinkOptions) {}

  accepts(envelope: Envelope): boolean {
    return envelope.type === 'rupture.state_changed';
  }

  /** The alerts one band change sends (pure apart from the remembered firing severities). */
  alertsFor(envelope: Envelope): AlertmanagerAlert[] {
    if (envelope.type !== 'rupture.state_changed') return [];
    const p = envelope.payload;
    const key = p.rupture_id ?? p.workload;
    const at = envelope.timestamp;
    const previous = this.firing.get(key);
    const make = (severity: string, startsAt: string, endsAt: string): AlertmanagerAlert => this.alert(envelope.narrative, p, severity, startsAt, endsAt);
    if (p.type === 'recovered') {
      if (previous !== undefined) return [make(previous.severity, previous.startsAt, at)];
      return SEVERITIES.map((s) => make(s, at, at));
    }
    const startsAt = previous?.startsAt ?? at;
    const out: AlertmanagerAlert[] = [];
    if (previous !== undefined && previous.severity !== p.type) out.push(make(previous.severity, previous.startsAt, at));
    out.push(make(p.type, startsAt, new Date(Date.parse(at) + FIRING_FOR_MS).toISOString()));
    return out;
  }

  async deliver(envelope: Envelope): Promise<void> {
    if (envelope.type !== 'rupture.state_changed') return;
    const alerts = this.alertsFor(envelope);
    await postJson(this.name, `${this.options.url.replace(/\/+$/, '')}/api/v2/alerts`, JSON.stringify(alerts), {}, this.options.timeoutMs);
    const p = envelope.payload;
    const key = p.rupture_id ?? p.workload;
    if (p.type === 'recovered') this.firing.delete(key);
    else this.firing.set(key, { severity: p.type, startsAt: this.firing.get(key)?.startsAt ?? envelope.timestamp });
  }

  private alert(narrative: string | null, p: RupturePayload, severity: string, startsAt: string, endsAt: string): AlertmanagerAlert {
    const [namespace = '', kind = '', name = ''] = p.workload.split('/');
    const labels: Record<string, string> = { alertname: 'WorkloadRupture', namespace, kind, workload: name, severity };
    if (p.rupture_id !== null) labels['rupture_id'] = p.rupture_id;
    const alert: AlertmanagerAlert = {
      labels,
      annotations: { summary: p.message, narrative: narrative ?? p.message, fused_r: p.fused_r.toFixed(2) },
      startsAt,
      endsAt,
    };
    if (this.options.generatorUrl !== undefined) alert.generatorURL = this.options.generatorUrl;
    return alert;
  }
}
