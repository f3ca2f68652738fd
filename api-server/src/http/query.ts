/** Query parameters shared by list routes (api.md §1.6): `limit`, `since`, `horizon`. */
import type { Context } from 'koa';
import { badQuery } from '../model/http-errors.js';

const one = (ctx: Context, name: string): string | undefined => {
  const v = ctx.query[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Positive integer, clamped to 1000; `fallback` when absent. */
export function limitParam(ctx: Context, fallback = 1000): number {
  const raw = one(ctx, 'limit');
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw badQuery(`limit must be a positive integer, got ${JSON.stringify(raw)}`, 'limit');
  return Math.min(1000, Number(raw));
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Date.parse rolls 30 February over to 2 March and hour 24 to the next day; RFC 3339 has neither. */
function isCalendarDate(year: number, month: number, day: number, hour: number): boolean {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return hour <= 23 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function sinceParam(ctx: Context): number | undefined {
  const raw = one(ctx, 'since');
  if (raw === undefined) return undefined;
  const t = Date.parse(raw);
  const m = RFC3339.exec(raw);
  if (m === null || Number.isNaN(t) || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]))) throw badQuery(`since must be an RFC 3339 date-time, got ${JSON.stringify(raw)}`, 'since');
  return t;
}

export const MAX_HORIZON_MINUTES = 10_080;

/** Minutes, positive integer, default 60, clamped to 10080. */
export function horizonParam(raw: unknown, field: string): number {
  if (raw === undefined || raw === null) return 60;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw badQuery(`${field} must be a positive integer number of minutes`, field);
  return Math.min(MAX_HORIZON_MINUTES, n);
}

export function queryString(ctx: Context, name: string): string | undefined {
  return one(ctx, name);
}
