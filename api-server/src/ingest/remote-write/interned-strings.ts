/**
 * Strings of a protobuf body decoded once and reused: a remote-write sender repeats the same label
 * names and values in every request (the same series every 15 s), and decoding each of them anew
 * was the largest part of a request's decode (docs/ingest-performance.md). A direct-mapped table of
 * 4 096 slots keyed by the string's bytes (FNV-1a), for strings of up to 64 bytes; a longer string
 * or a miss is decoded as Node decodes UTF-8 (invalid sequences as U+FFFD), so the result is always
 * what `buffer.toString('utf8', start, end)` gives. Fixed size: 256 KB of key bytes per table.
 */
const SLOTS = 4096;
const MAX_BYTES = 64;

export class InternedStrings {
  private readonly keyBytes = new Uint8Array(SLOTS * MAX_BYTES);
  /** the byte length of each slot's key; -1: empty */
  private readonly keyLengths = new Int16Array(SLOTS).fill(-1);
  private readonly strings: string[] = new Array<string>(SLOTS).fill('');

  /** the UTF-8 string of `buffer[start, end)` */
  get(buffer: Buffer, start: number, end: number): string {
    const length = end - start;
    if (length > MAX_BYTES) return buffer.toString('utf8', start, end);
    let hash = 0x811c9dc5 ^ length;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ (buffer[i] as number), 0x01000193);
    const slot = (hash >>> 0) & (SLOTS - 1);
    const at = slot * MAX_BYTES;
    const keys = this.keyBytes;
    if (this.keyLengths[slot] === length) {
      let same = true;
      for (let i = 0; i < length; i++) {
        if (keys[at + i] !== buffer[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return this.strings[slot] as string;
    }
    const s = buffer.toString('utf8', start, end);
    keys.set(buffer.subarray(start, end), at);
    this.keyLengths[slot] = length;
    this.strings[slot] = s;
    return s;
  }
}
