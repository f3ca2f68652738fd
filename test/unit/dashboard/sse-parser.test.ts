import { expect } from 'chai';
import fc from 'fast-check';
import { SseParser } from '../../../dashboard/src/live/sse-parser.js';

const parseAll = (chunks: string[]) => {
  const p = new SseParser();
  return chunks.flatMap((c) => p.push(c));
};

describe('SSE frame parser (fetch-stream reading)', () => {
  it('reads id and data lines, one frame per blank line', () => {
    const frames = parseAll(['id: ev_000001\ndata: {"type":"warning"}\n\nid: ev_000002\ndata: {"type":"recovered"}\n\n']);
    expect(frames).to.deep.equal([
      { lastEventId: 'ev_000001', event: 'message', data: '{"type":"warning"}' },
      { lastEventId: 'ev_000002', event: 'message', data: '{"type":"recovered"}' },
    ]);
  });

  it('keeps the last id for frames without one (as the connected and heartbeat frames are)', () => {
    const p = new SseParser();
    p.push('id: ev_000007\ndata: a\n\n');
    expect(p.push('data: {"type":"heartbeat"}\n\n')).to.deep.equal([{ lastEventId: 'ev_000007', event: 'message', data: '{"type":"heartbeat"}' }]);
    expect(p.lastEventId).to.equal('ev_000007');
  });

  it('joins data lines with newlines, skips comments, honours event, retry and the optional space', () => {
    const frames = parseAll([': keep-alive\nevent: band\ndata:first\ndata: second\nretry: 2500\n\n']);
    expect(frames).to.deep.equal([{ lastEventId: '', event: 'band', data: 'first\nsecond' }]);
    const p = new SseParser();
    p.push('retry: 2500\nretry: soon\n\n');
    expect(p.retry).to.equal(2500);
  });

  it('accepts CRLF and CR line ends, also when CRLF is split across chunks', () => {
    expect(parseAll(['data: a\r', '\n\r', '\ndata: b\r\r'])).to.deep.equal([
      { lastEventId: '', event: 'message', data: 'a' },
      { lastEventId: '', event: 'message', data: 'b' },
    ]);
  });

  it('dispatches nothing for a frame without data and ignores an id holding NUL', () => {
    const p = new SseParser();
    expect(p.push('id: 1\n\n')).to.deep.equal([]);
    expect(p.lastEventId).to.equal('1');
    p.push('id: bad\0id\ndata: x\n\n');
    expect(p.lastEventId).to.equal('1');
  });

  it('drops a frame cut off by the end of the stream', () => {
    const p = new SseParser();
    expect(p.push('data: half')).to.deep.equal([]);
    p.end();
    expect(p.push('\n\n')).to.deep.equal([]);
  });

  it('gives the same frames however the stream is cut into chunks', () => {
    const line = fc.constantFrom('data: {"a":1}', 'data:x', 'id: ev_1', 'id: ev_22', ': c', 'event: e', '');
    const sep = fc.constantFrom('\n', '\r\n', '\r');
    fc.assert(
      fc.property(fc.array(fc.tuple(line, sep), { maxLength: 30, size: 'max' }), fc.array(fc.nat(), { maxLength: 10 }), (lines, cuts) => {
        const text = lines.map(([l, s]) => l + s).join('');
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let at = 0;
        for (const p of points) {
          chunks.push(text.slice(at, p));
          at = p;
        }
        chunks.push(text.slice(at));
        expect(parseAll(chunks)).to.deep.equal(parseAll([text]));
      }),
    );
  });
});
