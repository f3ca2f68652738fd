import { DecodeError } from '../../api-server/src/model/records.js';

/** The DecodeError a decode refuses with; fails when it decodes or throws anything else. */
export function decodeRefusal(decode: () => unknown): DecodeError {
  try {
    decode();
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw e;
  }
  throw new Error('decoded without an error');
}
