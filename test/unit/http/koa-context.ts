/** A real Koa context for a request line and headers, without a socket: for the tests of the edge's parsers. */
import Koa, { type Context } from 'koa';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

const app = new Koa();

export function contextFor(url: string, headers: Record<string, string> = {}, method = 'GET'): Context {
  const req = new IncomingMessage(new Socket());
  req.url = url;
  req.method = method;
  req.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return app.createContext(req, new ServerResponse(req));
}

/** `url` with one query parameter set to `value`, encoded as a client would */
export const withQuery = (name: string, value: string): string => `/list?${new URLSearchParams({ [name]: value }).toString()}`;
