/** Every workload as a tile: FusedR, band colour, phase, health_score and a sparkline; filter and sort. */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client.js';
import type { RuptureListItem } from '../api/types.js';
import { DiagnosisLine } from '../components/diagnosis-line.js';
import { BandBadge } from '../components/band-badge.js';
import { ErrorNotice } from '../components/notice.js';
import { Sparkline } from '../components/sparkline.js';
import { BAND_STYLES, bandOfFusedR, bandOfState, bandRank } from '../model/bands.js';
import { formatFusedR, formatMinutes, formatRelative, formatWorkloadHealth } from '../model/format.js';
import { phaseOf } from '../model/phase.js';
import { hrefOf, keyOf } from '../model/routes.js';
import type { Fleet } from './use-fleet.js';

type SortOrder = 'fused-desc' | 'fused-asc' | 'name';

export function sortFleet(items: readonly RuptureListItem[], order: SortOrder): RuptureListItem[] {
  const byKey = (a: RuptureListItem, b: RuptureListItem): number => keyOf(a.workload).localeCompare(keyOf(b.workload));
  const copy = [...items];
  if (order === 'name') return copy.sort(byKey);
  const sign = order === 'fused-desc' ? -1 : 1;
  return copy.sort((a, b) => sign * (a.fused_rupture_index - b.fused_rupture_index) || byKey(a, b));
}

/** the tile's band: the worse of the state's band and the FusedR band */
function bandOfItem(item: RuptureListItem) {
  const a = bandOfState(item.state);
  const b = bandOfFusedR(item.fused_rupture_index);
  return bandRank(a) >= bandRank(b) ? a : b;
}

function PhaseText(props: { item: RuptureListItem }) {
  const p = phaseOf(props.item);
  if (p.phase !== 'Calibrating') return <span class={`phase phase-${p.phase.toLowerCase()}`}>{p.phase}</span>;
  return (
    <span class="phase phase-calibrating">
      Calibrating{' '}
      <progress max={100} value={p.progress} aria-label={`calibration ${p.progress}%`}>
        {p.progress}%
      </progress>{' '}
      {p.progress}% · ETA {formatMinutes(p.etaMinutes)}
    </span>
  );
}

export function FleetView(props: { fleet: Fleet; client: ApiClient; onUnauthorized(): void }) {
  const { fleet } = props;
  const [namespace, setNamespace] = useState('');
  const [order, setOrder] = useState<SortOrder>('fused-desc');
  const namespaces = [...new Set(fleet.items.map((i) => i.workload.namespace))].sort();
  const shown = sortFleet(
    fleet.items.filter((i) => namespace === '' || i.workload.namespace === namespace),
    order,
  );
  const now = Date.now();
  const counts = { normal: 0, warning: 0, critical: 0, emergency: 0 };
  for (const i of fleet.items) counts[bandOfItem(i)] += 1;

  return (
    <section aria-labelledby="fleet-title">
      <div class="view-head">
        <h1 id="fleet-title">Fleet</h1>
        <p class="summary">
          {fleet.items.length} workload{fleet.items.length === 1 ? '' : 's'} · {counts.emergency} emergency · {counts.critical} critical · {counts.warning} warning
        </p>
      </div>
      <div class="toolbar">
        <label>
          Namespace{' '}
          <select value={namespace} onChange={(e) => setNamespace(e.currentTarget.value)}>
            <option value="">All namespaces</option>
            {namespaces.map((ns) => (
              <option value={ns} key={ns}>
                {ns}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sort{' '}
          <select value={order} onChange={(e) => setOrder(e.currentTarget.value as SortOrder)}>
            <option value="fused-desc">FusedR, highest first</option>
            <option value="fused-asc">FusedR, lowest first</option>
            <option value="name">Name</option>
          </select>
        </label>
      </div>
      <ErrorNotice error={fleet.error} />
      {fleet.loaded && shown.length === 0 && <p class="empty">No workload known yet. Send telemetry or inject a simulation.</p>}
      <ul class="fleet" aria-label="Workloads">
        {shown.map((item) => {
          const key = keyOf(item.workload);
          const band = bandOfItem(item);
          const style = BAND_STYLES[band];
          return (
            <li class="tile" key={key} data-key={key} data-band={band} style={{ borderLeftColor: style.background }}>
              <a class="tile-name" href={hrefOf({ view: 'workload', ref: item.workload })}>
                <span class="ns">{item.workload.namespace}/</span>
                <strong>{item.workload.name}</strong> <span class="kind">{item.workload.kind}</span>
              </a>
              <BandBadge state={band === 'normal' ? item.state : band} />
              <dl class="facts">
                <div>
                  <dt>FusedR</dt>
                  <dd class="fused">{formatFusedR(item.fused_rupture_index)}</dd>
                </div>
                <div>
                  <dt>Health</dt>
                  <dd>{formatWorkloadHealth(item)}</dd>
                </div>
                <div class="wide">
                  <dt>Phase</dt>
                  <dd>
                    <PhaseText item={item} />
                  </dd>
                </div>
              </dl>
              {band !== 'normal' && <DiagnosisLine client={props.client} workloadKey={key} onUnauthorized={props.onUnauthorized} />}
              <Sparkline points={fleet.history.points(key)} colour={style.background} />
              <span class="updated">updated {formatRelative(item.timestamp, now)}</span>
            </li>
          );
        })}
      </ul>
      {fleet.events.length > 0 && (
        <section aria-labelledby="events-title" class="events">
          <h2 id="events-title">Recent band changes</h2>
          <ul>
            {fleet.events.slice(0, 10).map((e) => (
              <li key={e.id}>
                <BandBadge state={e.type === 'recovered' ? 'stable' : (e.state ?? e.type)} /> {e.message ?? `${e.workload} ${e.type}`} <span class="muted">{formatRelative(e.ts, now)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
