/** Text forms of numbers, durations and times shown on the page. */

export function formatFusedR(r: number): string {
  return Number.isFinite(r) ? r.toFixed(2) : '–';
}

/** health_score 0..1 as a whole percentage; a dash when there is none */
export function formatHealth(h: number | null | undefined): string {
  if (h === undefined || h === null || !Number.isFinite(h)) return '–';
  return `${Math.round(Math.min(1, Math.max(0, h)) * 100)}%`;
}

/** a workload's health_score, a dash while nothing was analysed (status pending_telemetry) */
export function formatWorkloadHealth(w: { health_score?: number | null; status?: string }): string {
  return w.status === 'pending_telemetry' ? '–' : formatHealth(w.health_score);
}

export function formatSignal(v: number): string {
  return Number.isFinite(v) ? v.toFixed(2) : '–';
}

/** minutes as "12 min", "1 h 5 min", "2 d 3 h"; 0 or less is "none" */
export function formatMinutes(minutes: number | undefined): string {
  if (minutes === undefined || !Number.isFinite(minutes) || minutes <= 0) return 'none';
  const m = Math.round(minutes);
  if (m < 60) return `${m} min`;
  if (m < 1440) return m % 60 === 0 ? `${m / 60} h` : `${Math.floor(m / 60)} h ${m % 60} min`;
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  return h === 0 ? `${d} d` : `${d} d ${h} h`;
}

export function formatSeconds(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return 'none';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  return formatMinutes(Math.floor(seconds / 60));
}

/**
 * The one failure ETA (ttf_seconds with its basis): "none" without an estimate, "now" at 0, else
 * as formatSeconds (whole minutes floored, as critical_eta_minutes is)
 */
export function formatEta(seconds: number | undefined, basis: string | undefined): string {
  if (basis === 'none' || seconds === undefined || !Number.isFinite(seconds)) return 'none';
  return seconds <= 0 ? 'now' : formatSeconds(seconds);
}

/** "just now", "42 s ago", "5 min ago", "3 h ago", "2 d ago" (future times read "in …") */
export function formatRelative(iso: string | undefined, nowMs: number): string {
  if (iso === undefined) return '–';
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '–';
  const diff = Math.round((nowMs - t) / 1000);
  const abs = Math.abs(diff);
  if (abs < 5) return 'just now';
  let text: string;
  if (abs < 60) text = `${abs} s`;
  else if (abs < 3600) text = `${Math.floor(abs / 60)} min`;
  else if (abs < 86400) text = `${Math.floor(abs / 3600)} h`;
  else text = `${Math.floor(abs / 86400)} d`;
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}

/** RFC 3339 → "2026-05-01 09:00:00 UTC" */
export function formatTimestamp(iso: string | null | undefined): string {
  if (iso === undefined || iso === null) return '–';
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '–';
  return `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function formatPercent(fraction: number | undefined): string {
  if (fraction === undefined || !Number.isFinite(fraction)) return '–';
  return `${Math.round(fraction * 100)}%`;
}
