/**
 * Shared readers of OTLP/JSON (interface "OTLP format rules"): attribute lists, AnyValue,
 * `timeUnixNano` and hex ids. Every refusal is a DecodeError naming the JSON path.
 */
import { DecodeError } from '../../model/records.js';

export type Json = unknown;

export function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function arrayAt(parent: Record<string, Json>, key: string, path: string): Json[] {
  const v = parent[key];
  if (v === undefined || v === null) return [];
  const field = path === '' ? key : `${path}.${key}`;
  if (!Array.isArray(v)) throw new DecodeError(`${field} must be an array`, field);
  return v;
}

export function objectAt(items: Json[], i: number, path: string): Record<string, Json> {
  const v = items[i];
  if (!isObject(v)) throw new DecodeError(`${path}[${i}] must be an object`, `${path}[${i}]`);
  return v;
}

/** AnyValue in its string form (api.md §1.9); intValue must be a JSON number (rule 3). */
export function anyValueString(value: Json, path: string): string | undefined {
  if (!isObject(value)) return undefined;
  if ('stringValue' in value) {
    if (typeof value['stringValue'] !== 'string') throw new DecodeError(`${path}.stringValue must be a string`, `${path}.stringValue`);
    return value['stringValue'];
  }
  if ('intValue' in value) {
    const v = value['intValue'];
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      throw new DecodeError(`${path}.intValue must be a JSON number (an integer, not a quoted string)`, `${path}.intValue`);
    }
    return String(v);
  }
  if ('boolValue' in value) {
    if (typeof value['boolValue'] !== 'boolean') throw new DecodeError(`${path}.boolValue must be a boolean`, `${path}.boolValue`);
    return String(value['boolValue']);
  }
  if ('doubleValue' in value) {
    const v = value['doubleValue'];
    if (typeof v !== 'number') throw new DecodeError(`${path}.doubleValue must be a JSON number`, `${path}.doubleValue`);
    return String(v);
  }
  return undefined;
}

/** Attribute list → null-prototype map (keys such as `__proto__` stay plain keys). */
export function readAttributes(owner: Record<string, Json>, path: string): Map<string, string> {
  const out = new Map<string, string>();
  const list = arrayAt(owner, 'attributes', path);
  for (let i = 0; i < list.length; i += 1) {
    const attr = objectAt(list, i, `${path}.attributes`);
    const key = attr['key'];
    if (typeof key !== 'string') throw new DecodeError(`${path}.attributes[${i}].key must be a string`, `${path}.attributes[${i}].key`);
    const v = anyValueString(attr['value'], `${path}.attributes[${i}].value`);
    if (v !== undefined) out.set(key, v);
  }
  return out;
}

const DECIMAL = /^\d{1,20}$/;

/** `timeUnixNano` as epoch ms; decimal strings (rule 4) and non-negative JSON integers accepted. */
export function timeMs(owner: Record<string, Json>, key: string, path: string, required: boolean): number | undefined {
  const v = owner[key];
  if (v === undefined || v === null || v === '') {
    if (required) throw new DecodeError(`${path}.${key} is required (decimal string of Unix nanoseconds)`, `${path}.${key}`);
    return undefined;
  }
  if (typeof v === 'string') {
    if (!DECIMAL.test(v)) throw new DecodeError(`${path}.${key} must be a decimal string of Unix nanoseconds`, `${path}.${key}`);
    return v.length > 6 ? Number(v.slice(0, -6)) + Number(v.slice(-6)) / 1e6 : Number(v) / 1e6;
  }
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v / 1e6;
  throw new DecodeError(`${path}.${key} must be a decimal string of Unix nanoseconds`, `${path}.${key}`);
}

export function hexId(owner: Record<string, Json>, key: string, length: number, path: string, required: boolean): string {
  const v = owner[key];
  if (v === undefined || v === null || v === '') {
    if (required) throw new DecodeError(`${path}.${key} is required (${length} hex characters)`, `${path}.${key}`);
    return '';
  }
  if (typeof v !== 'string' || v.length !== length || !/^[0-9a-fA-F]+$/.test(v)) {
    throw new DecodeError(`${path}.${key} must be ${length} hex characters`, `${path}.${key}`);
  }
  return v.toLowerCase();
}
