/**
 * One workload: the ten signals, FusedR history (stored tiers), health forecast, anomalies and
 * context events on the timeline, the explanation of the current rupture, pattern match.
 * The explanation is asked for only when the snapshot names a rupture id.
 */
import { useState } from 'preact/hooks';
import type { ApiClient, HistorySpan } from '../api/client.js';
import type { Snapshot, WorkloadRef } from '../api/types.js';
import { SIGNAL_NAMES } from '../api/types.js';
import { BandBadge } from '../components/band-badge.js';
import { BreakdownTable } from '../components/breakdown-table.js';
import type { TimelineMark } from '../components/history-chart.js';
import { HistoryChart } from '../components/history-chart.js';
import { ErrorNotice } from '../components/notice.js';
import { formatEta, formatFusedR, formatHealth, formatMinutes, formatPercent, formatSignal, formatTimestamp, formatWorkloadHealth } from '../model/format.js';
import { phaseOf } from '../model/phase.js';
import { hrefOf, keyOf } from '../model/routes.js';
import { historyRange } from '../model/time-range.js';
import { useLoader } from './use-loader.js';

const NORMAL_STATES = new Set(['stable', 'elevated']);

const SPANS: { value: HistorySpan; text: string; ms: number }[] = [
  { value: '1h', text: '1 hour (15 s points)', ms: 3_600_000 },
  { value: '6h', text: '6 hours (15 s points)', ms: 6 * 3_600_000 },
  { value: '2d', text: '2 days (1 min means)', ms: 48 * 3_600_000 },
  { value: '30d', text: '30 days (5 min means)', ms: 720 * 3_600_000 },
  { value: '1y', text: '1 year (1 h means)', ms: 8760 * 3_600_000 },
];

/** health_score while no bucket was analysed (status pending_telemetry) becomes NaN, which formatSignal shows as a dash */
function signalRows(s: Snapshot): { name: string; value: number; state: string }[] {
  return SIGNAL_NAMES.map((name) => (name === 'health_score' ? { name, value: s.status === 'pending_telemetry' ? Number.NaN : s.health_score, state: phaseOf(s).phase === 'Calibrating' ? 'calibrating' : s.state } : { name, ...s[name] }));
}

export function WorkloadView(props: { client: ApiClient; ref_: WorkloadRef; onUnauthorized(): void }) {
  const { client, onUnauthorized } = props;
  const ref = props.ref_;
  const key = keyOf(ref);
  const [span, setSpan] = useState<HistorySpan>('1h');
  const spanMs = SPANS.find((s) => s.value === span)?.ms ?? 3_600_000;

  const snapshot = useLoader(() => client.rupture(ref), [key], onUnauthorized, 3000);
  const history = useLoader(() => client.history(ref, span), [key, span], onUnauthorized, 15_000);
  const anomalies = useLoader(() => client.anomalies(ref, new Date(Date.now() - spanMs).toISOString()), [key, span], onUnauthorized, 10_000);
  const context = useLoader(() => client.contextEvents(key), [key], onUnauthorized, 15_000);
  const ruptureId = snapshot.data?.rupture_id ?? null;
  // out of normal without an open episode id (a snapshot read between steps, or before calibration):
  // the workload key names its latest episode
  const outOfNormal = snapshot.data !== undefined && !NORMAL_STATES.has(snapshot.data.state);
  const explainId = ruptureId ?? (outOfNormal ? key : null);
  const explanation = useLoader(
    () => (explainId === null ? Promise.resolve(undefined) : Promise.all([client.narrative(explainId), client.formula(explainId), client.explain(explainId)])),
    [explainId],
    onUnauthorized,
    10_000,
  );

  const s = snapshot.data;
  const points = history.data?.points ?? [];
  const marks: TimelineMark[] = [
    ...(anomalies.data ?? []).map((a) => ({ t: Date.parse(a.timestamp), kind: 'anomaly' as const, label: `${a.severity} anomaly (${a.method}${a.consensus ? ', consensus' : ''}) on ${a.metric ?? 'a series'}: ${formatSignal(a.value)}` })),
    ...(context.data ?? []).map((c) => ({ t: Date.parse(c.timestamp), kind: 'context' as const, label: `${c.event}${c.description ? `: ${c.description}` : ''}` })),
  ].sort((a, b) => b.t - a.t);
  const [narrative, formula, trace] = explanation.data ?? [];
  const etaSeconds = narrative?.diagnosis !== undefined && narrative.diagnosis !== null && ruptureId !== null ? narrative.ttf_seconds : undefined;

  return (
    <section aria-labelledby="workload-title" class="workload">
      <p class="crumbs">
        <a href={hrefOf({ view: 'fleet' })}>Fleet</a> / {ref.namespace} / {ref.kind}
      </p>
      <div class="view-head">
        <h1 id="workload-title">{ref.name}</h1>
        {s !== undefined && <BandBadge state={s.state} />}
      </div>
      <ErrorNotice error={snapshot.error} />
      {s !== undefined && (
        <dl class="facts headline">
          <div>
            <dt>FusedR</dt>
            <dd class="fused">{formatFusedR(s.fused_rupture_index)}</dd>
          </div>
          <div>
            <dt>Health</dt>
            <dd>{formatWorkloadHealth(s)}</dd>
          </div>
          <div>
            <dt>Phase</dt>
            <dd>
              {phaseOf(s).phase}
              {phaseOf(s).phase === 'Calibrating' && ` ${s.calibration_progress}% · ETA ${formatMinutes(s.calibration_eta_minutes)}`}
            </dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>{formatTimestamp(s.timestamp)}</dd>
          </div>
        </dl>
      )}

      <div class="grid">
        <section aria-labelledby="signals-title" class="card">
          <h2 id="signals-title">Signals</h2>
          {s === undefined ? (
            <p class="muted">Loading…</p>
          ) : (
            <table class="signals">
              <thead>
                <tr>
                  <th scope="col">Signal</th>
                  <th scope="col">Value</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {signalRows(s).map((r) => (
                  <tr key={r.name}>
                    <th scope="row">{r.name}</th>
                    <td>{formatSignal(r.value)}</td>
                    <td>{r.state}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>

        <section aria-labelledby="forecast-title" class="card">
          <h2 id="forecast-title">Health forecast</h2>
          {s !== undefined && (
            <dl class="pairs">
              <dt>In 15 min</dt>
              <dd>{formatHealth(s.health_forecast.in_15min)}</dd>
              <dt>In 30 min</dt>
              <dd>{formatHealth(s.health_forecast.in_30min)}</dd>
              <dt>Trend</dt>
              <dd>{s.health_forecast.trend}</dd>
              <dt>Critical in</dt>
              <dd class="eta" data-testid="critical-eta" data-minutes={s.health_forecast.critical_eta_minutes}>
                {/* inside a rupture the one ETA (ttf_seconds) says it to the second; critical_eta_minutes is the same, floored */}
                {etaSeconds !== undefined ? formatEta(etaSeconds, narrative?.diagnosis?.eta_basis) : formatMinutes(s.health_forecast.critical_eta_minutes)}
              </dd>
              <dt>SLO burn velocity</dt>
              <dd>{formatSignal(s.business.slo_burn_velocity)}</dd>
              <dt>Blast radius</dt>
              <dd>{s.business.blast_radius}</dd>
              <dt>Recovery debt</dt>
              <dd>{s.business.recovery_debt}</dd>
            </dl>
          )}
          <h3>Pattern match</h3>
          {s?.pattern_match ? (
            <p class="pattern">
              {formatPercent(s.pattern_match.similarity)} similar to rupture <code>{s.pattern_match.matched_rupture_id}</code> of {formatTimestamp(s.pattern_match.matched_at)}
              {s.pattern_match.resolution_note !== undefined && `: ${s.pattern_match.resolution_note}`}
            </p>
          ) : (
            <p class="muted">No past rupture resembles the current state.</p>
          )}
        </section>
      </div>

      <section aria-labelledby="history-title" class="card">
        <div class="card-head">
          <h2 id="history-title">FusedR history</h2>
          <label>
            Span{' '}
            <select value={span} onChange={(e) => setSpan(e.currentTarget.value as HistorySpan)}>
              {SPANS.map((o) => (
                <option value={o.value} key={o.value}>
                  {o.text}
                </option>
              ))}
            </select>
          </label>
        </div>
        <ErrorNotice error={history.error} />
        <HistoryChart
          times={points.map((p) => Date.parse(p.t))}
          values={points.map((p) => p.fused_r)}
          marks={marks}
          label={`FusedR of ${ref.name} over ${span}: ${points.length} points from the ${history.data?.tier ?? ''} tier`}
          range={historyRange(points.map((p) => Date.parse(p.t)), spanMs, Date.now())}
        />
        <p class="legend">
          <span class="key-line fused" aria-hidden="true" /> FusedR <span class="key-line anomaly" aria-hidden="true" /> anomaly <span class="key-line context" aria-hidden="true" /> context event
          (deploy…) · {points.length} points, tier {history.data?.tier ?? '–'}
        </p>
        <h3>Timeline</h3>
        <ErrorNotice error={anomalies.error ?? context.error} />
        {marks.length === 0 ? (
          <p class="muted">No anomaly or context event in this span.</p>
        ) : (
          <ul class="timeline">
            {marks.slice(0, 30).map((m, i) => (
              <li key={`${m.t}-${i}`} data-kind={m.kind}>
                <time dateTime={new Date(m.t).toISOString()}>{formatTimestamp(new Date(m.t).toISOString())}</time> <span class={`mark mark-${m.kind}`}>{m.kind === 'context' ? 'context' : 'anomaly'}</span> {m.label}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="explain-title" class="card explain">
        <h2 id="explain-title">Explanation</h2>
        {explainId === null ? (
          <p class="muted">No rupture: {ref.name} is in the normal band.</p>
        ) : (
          <>
            <p class="muted">
              {ruptureId !== null ? (
                <>
                  Rupture <code>{ruptureId}</code>
                </>
              ) : (
                `Latest episode of ${ref.name} (the ${s?.state ?? ''} band has no open episode id in this snapshot)`
              )}
            </p>
            {ruptureId === null && explanation.error !== undefined ? (
              <p class="muted">
                {ref.name} is in the {s?.state} band but no episode is recorded yet: episodes open on calibrated steps.
              </p>
            ) : (
              <ErrorNotice error={explanation.error} />
            )}
            {narrative !== undefined && (
              <>
                {narrative.diagnosis !== undefined && narrative.diagnosis !== null && narrative.diagnosis.kind !== 'undetermined' && (
                  <p class="diagnosis" data-testid="diagnosis">
                    <strong>{narrative.diagnosis.kind.replace('-', ' ')}</strong>: {narrative.diagnosis.summary}
                  </p>
                )}
                <p class="narrative" data-testid="narrative">
                  {narrative.narrative}
                </p>
                <dl class="pairs">
                  <dt>Severity</dt>
                  <dd>{narrative.severity}</dd>
                  <dt>Primary pipeline</dt>
                  <dd>{narrative.primary_pipeline}</dd>
                  <dt>Top factor</dt>
                  <dd>{narrative.top_factor}</dd>
                  <dt>Time to failure</dt>
                  <dd data-testid="ttf" data-seconds={narrative.ttf_seconds}>
                    {formatEta(narrative.ttf_seconds, narrative.diagnosis?.eta_basis)}
                  </dd>
                </dl>
              </>
            )}
            {formula !== undefined && (
              <>
                <h3>Formula</h3>
                <p>
                  <code class="formula">{formula.formula}</code>
                </p>
                <BreakdownTable
                  caption="Pipelines"
                  columns={['Source', 'R', 'Weight']}
                  rows={(['metric', 'log', 'trace'] as const).map((p) => ({
                    name: p,
                    cells: [
                      formatFusedR((p === 'metric' ? formula.metric_r : p === 'log' ? formula.log_r : formula.trace_r) ?? Number.NaN),
                      formula.fusion?.weights[p] === undefined ? '–' : formatSignal(formula.fusion.weights[p]),
                    ],
                  }))}
                />
                {formula.health !== undefined && (
                  <BreakdownTable
                    caption="Health penalties"
                    columns={['Signal', 'Weight', 'Penalty']}
                    rows={Object.entries(formula.health.weights).map(([name, w]) => ({
                      name,
                      cells: [formatSignal(w), formatSignal(formula.health?.penalties[name] ?? Number.NaN)],
                    }))}
                  />
                )}
              </>
            )}
            {trace !== undefined && (
              <BreakdownTable
                caption="Ensemble models"
                columns={['Model', 'Weight', 'Prediction']}
                rows={Object.entries(trace.model_contributions).map(([name, c]) => ({ name, cells: [formatSignal(c.weight), formatFusedR(c.prediction)] }))}
              />
            )}
          </>
        )}
      </section>
    </section>
  );
}
