import { DecodeError } from '../model/records.js';

/** Parses a JSON request body: a UTF-8 BOM is skipped; empty or invalid JSON is a DecodeError. */
export function parseJson(body: Buffer): unknown {
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw new DecodeError('body is empty; a JSON document is required', undefined);
  try {
    // JSON.parse defines `__proto__` as a plain own property (it never invokes the setter); every
    // consumer reads known members only, so no key of the input reaches a prototype.
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new DecodeError(`body is not valid JSON: ${(error as Error).message}`, undefined);
  }
}
