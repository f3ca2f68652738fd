/**
 * A real Koa application of the HTTP edge (app shell, error middleware, the given routers, or an
 * application built whole) on a loopback port, and a recording logger, for the tests of test/unit/http/.
 */
import type { Router } from '@koa/router';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type Koa from 'koa';
import { createAppShell, mountRouters } from '../../../api-server/src/http/app-shell.js';
import type { ErrorLogger } from '../../../api-server/src/http/error-middleware.js';

export class RecordingLogger implements ErrorLogger {
  readonly lines: { level: 'error' | 'debug'; fields: Record<string, unknown>; message: string }[] = [];
  error(fields: Record<string, unknown>, message: string): void {
    this.lines.push({ level: 'error', fields, message });
  }
  debug(fields: Record<string, unknown>, message: string): void {
    this.lines.push({ level: 'debug', fields, message });
  }
}

export interface EdgeServer {
  url: string;
  logger: RecordingLogger;
  close(): Promise<void>;
}

export async function startEdgeServer(routers: readonly Router[]): Promise<EdgeServer> {
  const logger = new RecordingLogger();
  const app = createAppShell(logger);
  mountRouters(app, routers);
  return { ...(await listenOnLoopback(app)), logger };
}

/** Serves a built application (createRestApp, createOtlpApp) on an ephemeral loopback port. */
export async function listenOnLoopback(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
