/**
 * Incremental parser of a text/event-stream body (HTML Living Standard, "Server-sent events",
 * event stream interpretation), fed with decoded text chunks as fetch() delivers them. Lines end
 * in CRLF, LF or CR, also when split across chunks; `:` lines are comments; a blank line
 * dispatches the frame when it has data. The last event id survives across frames (and is what a
 * reconnect sends as Last-Event-ID); an id holding NUL is ignored, as the standard says.
 */
export interface SseFrame {
  /** the last event id after this frame's fields, or '' */
  lastEventId: string;
  /** `event:` field, 'message' when absent */
  event: string;
  data: string;
}

export class SseParser {
  private pending = '';
  private skipLeadingLf = false;
  private dataLines: string[] = [];
  private hasData = false;
  private eventType = '';
  private lastId = '';
  private retryMs: number | undefined;

  /** the reconnection time the server asked for with `retry:`, if any */
  get retry(): number | undefined {
    return this.retryMs;
  }

  get lastEventId(): string {
    return this.lastId;
  }

  /** Resets the id before a connection that should start fresh. */
  set lastEventId(id: string) {
    this.lastId = id;
  }

  push(chunk: string): SseFrame[] {
    const frames: SseFrame[] = [];
    let text = chunk;
    if (this.skipLeadingLf && text.startsWith('\n')) text = text.slice(1);
    this.skipLeadingLf = false;
    let buffer = this.pending + text;
    for (;;) {
      const cr = buffer.indexOf('\r');
      const lf = buffer.indexOf('\n');
      if (cr === -1 && lf === -1) break;
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        end = cr;
        if (cr + 1 < buffer.length) next = buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
        else {
          next = cr + 1;
          this.skipLeadingLf = true; // CRLF may be split across chunks
        }
      } else {
        end = lf;
        next = lf + 1;
      }
      const frame = this.line(buffer.slice(0, end));
      if (frame !== undefined) frames.push(frame);
      buffer = buffer.slice(next);
    }
    this.pending = buffer;
    return frames;
  }

  /** The stream ended: a frame without its blank line is discarded, as the standard says. */
  end(): void {
    this.pending = '';
    this.skipLeadingLf = false;
    this.resetFrame();
  }

  private line(line: string): SseFrame | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.dataLines.push(value);
        this.hasData = true;
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break;
    }
    return undefined;
  }

  private dispatch(): SseFrame | undefined {
    if (!this.hasData) {
      this.resetFrame();
      return undefined;
    }
    const frame: SseFrame = { lastEventId: this.lastId, event: this.eventType === '' ? 'message' : this.eventType, data: this.dataLines.join('\n') };
    this.resetFrame();
    return frame;
  }

  private resetFrame(): void {
    this.dataLines = [];
    this.hasData = false;
    this.eventType = '';
  }
}
