/**
 * GET /events (api.md §6.12): a server-sent event stream with `id:` lines for Last-Event-ID replay
 * and a heartbeat every 15 s; the JSON fallback when the client asks for application/json only.
 */
import { PassThrough } from 'node:stream';
import type { Router } from '@koa/router';
import type { StreamEvent } from '../../events/event-hub.js';
import { SUBSCRIBER_BUFFER } from '../../events/event-hub.js';
import { badQuery } from '../../model/http-errors.js';
import { limitParam, queryString } from '../query.js';
import type { ServiceContext } from '../service-context.js';

/** the members of the service context these routes use */
export type EventRoutesContext = Pick<ServiceContext, 'hub' | 'onClose'>;

export const HEARTBEAT_MS = 15_000;

export function registerEventRoutes(router: Router, svc: EventRoutesContext): void {
  router.get('/events', (ctx) => {
    const namespace = queryString(ctx, 'namespace');
    const minRaw = queryString(ctx, 'min_fused_r');
    const minFusedR = minRaw === undefined ? 0 : Number(minRaw);
    if (!Number.isFinite(minFusedR)) throw badQuery('min_fused_r must be a number', 'min_fused_r');
    const wanted = (e: StreamEvent): boolean => (namespace === undefined || e.workload.startsWith(`${namespace}/`)) && e.fused_r >= minFusedR;

    const accept = ctx.get('accept');
    if (accept.includes('application/json') && !accept.includes('text/event-stream')) {
      ctx.body = { events: svc.hub.recent(limitParam(ctx, 50)).filter(wanted) };
      return;
    }

    const stream = new PassThrough();
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    ctx.body = stream;
    let buffered = 0;
    const frame = (id: string | undefined, data: unknown): void => {
      stream.write(`${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`);
    };
    const send = (e: StreamEvent): void => {
      if (!wanted(e)) return;
      // a subscriber that cannot keep up loses events beyond its buffer, nobody else does
      if (stream.writableLength > 0 && buffered >= SUBSCRIBER_BUFFER) return;
      buffered = stream.writableLength > 0 ? buffered + 1 : 0;
      frame(e.id, e);
    };
    frame(undefined, { type: 'connected', ts: new Date().toISOString() });
    for (const e of svc.hub.since(ctx.get('last-event-id') || undefined)) send(e);
    const unsubscribe = svc.hub.subscribe({ push: send });
    const heartbeat = setInterval(() => frame(undefined, { type: 'heartbeat', ts: new Date().toISOString() }), HEARTBEAT_MS);
    const close = (): void => {
      clearInterval(heartbeat);
      unsubscribe();
      stream.end();
    };
    ctx.req.on('close', close);
    svc.onClose(close);
  });
}
