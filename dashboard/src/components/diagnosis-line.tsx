/**
 * The diagnosis line of a fleet tile out of the normal band: what moved, in the workload's own
 * terms ("memory leak: memory 62 % → 91 % in 40 min, +43 %/h"), from the workload's latest
 * explain record (asked for by workload key, refreshed every 10 s).
 */
import type { ApiClient } from '../api/client.js';
import { useLoader } from '../views/use-loader.js';

export function DiagnosisLine(props: { client: ApiClient; workloadKey: string; onUnauthorized(): void }) {
  const narrative = useLoader(() => props.client.narrative(props.workloadKey), [props.workloadKey], props.onUnauthorized, 10_000);
  const d = narrative.data?.diagnosis;
  if (d === undefined || d === null) return null;
  const text = d.kind === 'undetermined' ? 'no single input explains the rupture' : `${d.kind.replace('-', ' ')}: ${d.summary}`;
  return (
    <p class="tile-diagnosis" data-testid="tile-diagnosis">
      {text}
    </p>
  );
}
