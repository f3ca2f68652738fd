/**
 * OTLP/JSON as the OTLP specification defines it (the protobuf JSON mapping), brought to the shape
 * the contract's strict OTLP decoders read, for the standard OTLP/HTTP listener:
 * - field names in lowerCamelCase or as in the proto file (`resource_metrics`, `time_unix_nano`);
 * - 64-bit integers as JSON numbers or decimal strings (`"intValue": "23640"`);
 * - enums as numbers or by name (`"SPAN_KIND_SERVER"`, `"SEVERITY_NUMBER_WARN"`, `"STATUS_CODE_ERROR"`);
 * - doubles as `"NaN"`, `"Infinity"`, `"-Infinity"` (the decoders then drop and count such points).
 * Trace and span ids stay hex strings (the OTLP exception to the mapping's base64). Anything else
 * is left for the strict decoders to judge, so a refusal still names the field and the rule.
 */
import { DecodeError } from '../../model/records.js';

type Json = unknown;

const INTEGER = /^-?\d{1,20}$/;

const SPAN_KINDS = ['SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER'];
const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];
const SEVERITIES = [
  'SEVERITY_NUMBER_UNSPECIFIED',
  ...['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'].flatMap((level) => ['', '2', '3', '4'].map((n) => `SEVERITY_NUMBER_${level}${n}`)),
];

/** enum fields by their lowerCamelCase name and the object holding them */
const ENUMS: Record<string, readonly string[]> = { kind: SPAN_KINDS, code: STATUS_CODES, severityNumber: SEVERITIES };

export function camelCase(name: string): string {
  // only an underscore between two name characters: `time_unix_nano`, not `__proto__`
  return name.includes('_') ? name.replace(/(?<=[a-zA-Z0-9])_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : name;
}

function enumValue(value: Json, names: readonly string[], path: string): Json {
  if (typeof value !== 'string') return value;
  const index = names.indexOf(value);
  if (index >= 0) return index;
  if (INTEGER.test(value)) return Number(value);
  throw new DecodeError(`${path} must be an enum number or one of ${names[0]}..${names[names.length - 1]}`, path);
}

/** double fields a point or an attribute value carries */
const DOUBLES = new Set(['asDouble', 'doubleValue', 'sum', 'min', 'max']);
const SPECIAL_DOUBLES: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY };

const isSpecialDouble = (key: string, value: Json): value is string => DOUBLES.has(key) && typeof value === 'string' && value in SPECIAL_DOUBLES;

function intValue(value: Json, path: string): Json {
  if (typeof value !== 'string') return value;
  if (!INTEGER.test(value)) throw new DecodeError(`${path} must be a 64-bit integer (a JSON number or a decimal string)`, path);
  return Number(value);
}

/** Renames fields to lowerCamelCase, unquotes intValue, turns enum names into numbers (recursively). */
export function fromProtoJsonMapping(value: Json, path = ''): Json {
  if (Array.isArray(value)) return value.map((v, i) => fromProtoJsonMapping(v, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, Json> = {};
  for (const [rawKey, raw] of Object.entries(value as Record<string, Json>)) {
    const key = camelCase(rawKey);
    const field = path === '' ? key : `${path}.${key}`;
    const enumNames = ENUMS[key];
    const isEnum = enumNames !== undefined && (key !== 'code' || path.endsWith('status'));
    // `sum` is also a metric's Sum message: only a string there is a double
    const mapped = key === 'intValue' ? intValue(raw, field) : isEnum ? enumValue(raw, enumNames, field) : isSpecialDouble(key, raw) ? SPECIAL_DOUBLES[raw] : fromProtoJsonMapping(raw, field);
    // defineProperty: a key named `__proto__` stays a plain own key (an assignment would set the prototype)
    Object.defineProperty(out, key, { value: mapped, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
