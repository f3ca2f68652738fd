import { expect } from 'chai';
import fc from 'fast-check';
import { InternedStrings } from '../../../api-server/src/ingest/remote-write/interned-strings.js';

describe('interned strings of a protobuf body', () => {
  it('any bytes, valid UTF-8 or not, any slice: what Node decodes (property)', () => {
    const table = new InternedStrings();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100, size: 'max' }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const buffer = Buffer.from(bytes);
        const start = bytes.length === 0 ? 0 : a % bytes.length;
        const end = start + (bytes.length === 0 ? 0 : b % (bytes.length - start + 1));
        expect(table.get(buffer, start, end)).to.equal(buffer.toString('utf8', start, end));
        // a second read, now possibly from the table, is the same
        expect(table.get(buffer, start, end)).to.equal(buffer.toString('utf8', start, end));
      }),
      { numRuns: 2000 },
    );
  });

  it('20 000 different short strings through 4 096 slots: every read right, colliding keys never confused', () => {
    const table = new InternedStrings();
    const words = Array.from({ length: 20_000 }, (_, i) => `pod-${i.toString(36)}-é`);
    for (let round = 0; round < 2; round++) {
      for (const w of words) {
        const buffer = Buffer.from(`xx${w}yy`);
        expect(table.get(buffer, 2, buffer.length - 2)).to.equal(w);
      }
    }
  });

  it('the same bytes at another offset decode the same; over 64 bytes and the empty string too', () => {
    const table = new InternedStrings();
    const buffer = Buffer.from('__name__');
    expect(table.get(buffer, 0, 8)).to.equal('__name__');
    expect(table.get(Buffer.from('a__name__'), 1, 9)).to.equal('__name__');
    const long = 'x'.repeat(65);
    expect(table.get(Buffer.from(long), 0, 65)).to.equal(long);
    expect(table.get(Buffer.from(''), 0, 0)).to.equal('');
  });
});
