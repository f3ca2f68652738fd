/**
 * Live updates from GET /api/v2/events read with fetch(), because EventSource cannot send the
 * Authorization header. Reconnects after the stream ends or fails, sending Last-Event-ID so the
 * server replays what was missed; waits `retry:` when the server set it, otherwise backs off
 * 1 s, 2 s, 4 s … up to 30 s, and starts again at 1 s after a connection that delivered a frame.
 * A 401 stops it (the key is wrong) and is reported once.
 */
import { SseParser } from './sse-parser.js';

export type StreamStatus = 'connecting' | 'open' | 'reconnecting' | 'closed' | 'unauthorized';

export interface EventStreamOptions {
  url: string;
  key: string;
  onMessage(data: unknown, lastEventId: string): void;
  onStatus?(status: StreamStatus): void;
  fetchImpl?: typeof fetch;
  /** first back-off delay in ms (tests lower it) */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export interface EventStreamHandle {
  close(): void;
  /** the id the next reconnect will send */
  readonly lastEventId: string;
}

export function nextDelay(previousMs: number, minMs: number, maxMs: number): number {
  return previousMs <= 0 ? minMs : Math.min(maxMs, previousMs * 2);
}

export function requestHeaders(key: string, lastEventId: string): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${key}` };
  if (lastEventId !== '') headers['Last-Event-ID'] = lastEventId;
  return headers;
}

export function openEventStream(options: EventStreamOptions): EventStreamHandle {
  const doFetch = options.fetchImpl ?? fetch;
  const minDelay = options.minDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const parser = new SseParser();
  let closed = false;
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = 0;

  const status = (s: StreamStatus): void => options.onStatus?.(s);

  const connectOnce = async (): Promise<'again' | 'stop'> => {
    controller = new AbortController();
    const response = await doFetch(options.url, { headers: requestHeaders(options.key, parser.lastEventId), signal: controller.signal });
    if (response.status === 401) {
      status('unauthorized');
      await response.body?.cancel();
      return 'stop';
    }
    if (!response.ok || response.body === null) {
      await response.body?.cancel();
      return 'again';
    }
    status('open');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const frame of parser.push(value)) {
        delay = 0; // a working connection: the next failure starts the back-off anew
        let data: unknown;
        try {
          data = JSON.parse(frame.data);
        } catch {
          data = frame.data;
        }
        options.onMessage(data, frame.lastEventId);
      }
    }
    parser.end();
    return 'again';
  };

  const run = async (): Promise<void> => {
    status('connecting');
    let outcome: 'again' | 'stop' = 'again';
    try {
      outcome = await connectOnce();
    } catch {
      outcome = 'again'; // network failure or abort; a closed handle stops below
    }
    if (closed) return;
    if (outcome === 'stop') {
      closed = true;
      return;
    }
    status('reconnecting');
    delay = parser.retry ?? nextDelay(delay, minDelay, maxDelay);
    timer = setTimeout(() => void run(), delay);
  };

  void run();
  return {
    close: () => {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      controller?.abort();
      status('closed');
    },
    get lastEventId() {
      return parser.lastEventId;
    },
  };
}
