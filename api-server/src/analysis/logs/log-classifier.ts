/**
 * Log line classification of analytics.md §4.1 (interface severity table first, then the
 * severityText and body fallbacks). Pure; no per-line allocation (no lower-casing copies; the body
 * is scanned by two constant case-insensitive regular expressions).
 */
import type { LogClass } from '../../model/records.js';

export type { LogClass };

/**
 * Classifies one log line.
 *
 * - severityNumber 1–8 → 'ignored' (TRACE, DEBUG); 9–12 → 'info'; 13–16 → 'warn'; 17–24 → 'error' (ERROR/FATAL).
 * - severityNumber 0, absent, non-finite, non-integer or outside 1–24 counts as absent: severityText
 *   starting (any case) with `err`/`fatal`/`crit` → 'error', `warn` → 'warn', `debug`/`trace` → 'ignored',
 *   any other non-empty text → 'info'.
 * - neither: body containing (any case) `error`/`fatal`/`critical` → 'error', `warn` → 'warn', else 'info'.
 *
 * Leading blanks of severityText are skipped. Never throws.
 */
export function classifyLog(severityNumber: number, severityText: string, body: string): LogClass {
  if (Number.isInteger(severityNumber) && severityNumber >= 1 && severityNumber <= 24) {
    if (severityNumber <= 8) return 'ignored';
    if (severityNumber <= 12) return 'info';
    if (severityNumber <= 16) return 'warn';
    return 'error';
  }
  const text = typeof severityText === 'string' ? severityText : '';
  let start = 0;
  while (start < text.length && isBlank(text.charCodeAt(start))) start++;
  if (start < text.length) {
    if (startsWithIgnoreCase(text, start, 'err') || startsWithIgnoreCase(text, start, 'fatal') || startsWithIgnoreCase(text, start, 'crit')) {
      return 'error';
    }
    if (startsWithIgnoreCase(text, start, 'warn')) return 'warn';
    if (startsWithIgnoreCase(text, start, 'debug') || startsWithIgnoreCase(text, start, 'trace')) return 'ignored';
    return 'info';
  }
  const b = typeof body === 'string' ? body : '';
  if (BODY_ERROR.test(b)) return 'error';
  if (BODY_WARN.test(b)) return 'warn';
  return 'info';
}

/** Body evidence; non-global, so test() keeps no state between calls. */
const BODY_ERROR = /error|fatal|critical/i;
const BODY_WARN = /warn/i;

/** Short alias of {@link classifyLog}. */
export const classify = classifyLog;

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** ASCII lower-casing of one UTF-16 code unit; other characters unchanged. */
function lowerAscii(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/** Whether `text` at `offset` starts with `lowerNeedle` (ASCII lower-case), ignoring ASCII case. */
export function startsWithIgnoreCase(text: string, offset: number, lowerNeedle: string): boolean {
  if (offset < 0 || text.length - offset < lowerNeedle.length) return false;
  for (let i = 0; i < lowerNeedle.length; i++) {
    if (lowerAscii(text.charCodeAt(offset + i)) !== lowerNeedle.charCodeAt(i)) return false;
  }
  return true;
}

/** Whether `text` contains `lowerNeedle` (ASCII lower-case), ignoring ASCII case. */
export function containsIgnoreCase(text: string, lowerNeedle: string): boolean {
  const last = text.length - lowerNeedle.length;
  const first = lowerNeedle.charCodeAt(0);
  for (let i = 0; i <= last; i++) {
    if (lowerAscii(text.charCodeAt(i)) === first && startsWithIgnoreCase(text, i, lowerNeedle)) return true;
  }
  return false;
}
