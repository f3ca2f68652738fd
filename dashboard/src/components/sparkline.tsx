/** Small SVG trend line of recent FusedR values, with a text equivalent for screen readers. */
import type { SparkPoint } from '../model/fleet-history.js';
import { sparklinePath } from '../model/fleet-history.js';
import { formatFusedR } from '../model/format.js';

const W = 120;
const H = 28;

export function Sparkline(props: { points: readonly SparkPoint[]; colour: string }) {
  const path = sparklinePath(props.points, W, H);
  const values = props.points.map((p) => p.r);
  const label =
    values.length === 0 ? 'FusedR trend: no points yet' : `FusedR trend over ${values.length} points, from ${formatFusedR(values[0] ?? 0)} to ${formatFusedR(values[values.length - 1] ?? 0)}`;
  return (
    <svg class="sparkline" viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={label}>
      {path !== '' && <polyline points={path} fill="none" stroke={props.colour} stroke-width="2" stroke-linejoin="round" />}
    </svg>
  );
}
