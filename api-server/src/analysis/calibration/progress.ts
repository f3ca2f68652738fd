/**
 * Calibration progress and ETA (analytics.md §6), n = analysis steps run, N = N_cal.
 * progress = min(99, floor(100·n/N)) while n < N, 100 after; eta = floor((N − n)·Δ/60 s) while
 * calibrating, 0 after (Δ = step length, 15 s by default: with N = 96 an unseen workload shows 24).
 */
import type { WorkloadStatus } from '../contract.js';

export function calibrationProgress(n: number, required: number): number {
  if (n >= required) return 100;
  return Math.min(99, Math.floor((100 * Math.max(0, n)) / required));
}

export function calibrationEtaMinutes(n: number, required: number, stepMs = 15_000): number {
  if (n >= required) return 0;
  return Math.floor(((required - Math.max(0, n)) * stepMs) / 60_000);
}

export function isCalibrated(n: number, required: number): boolean {
  return n >= required;
}

export function statusOf(n: number, required: number): WorkloadStatus {
  if (n <= 0) return 'pending_telemetry';
  return n >= required ? 'active' : 'calibrating';
}
