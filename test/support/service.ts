/**
 * Starts the real api-server in-process on ephemeral loopback ports with a temporary LevelDB,
 * and gives tests small HTTP helpers. Nothing is mocked: tests talk to it over sockets only.
 */
import { pino } from 'pino';
import { loadSettings } from '../../api-server/src/config/load-settings.js';
import type { RunningServer } from '../../api-server/src/server.js';
import { startServer } from '../../api-server/src/server.js';
import { makeTempDir } from './temp-dir.js';

export interface TestService {
  server: RunningServer;
  api: string;
  otlp: string;
  dataDir: string;
  key: string | undefined;
  get(path: string): Promise<{ status: number; body: unknown; headers: Headers }>;
  post(path: string, body: unknown, base?: string): Promise<{ status: number; body: unknown; headers: Headers }>;
  stop(): Promise<void>;
  remove(): Promise<void>;
}

export interface TestServiceOptions {
  env?: Record<string, string>;
  args?: string[];
  dataDir?: string;
  key?: string;
  /** the service's clock (default Date.now), e.g. to replay a recorded day with its own timestamps */
  now?: () => number;
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dir = options.dataDir === undefined ? await makeTempDir('svc') : { path: options.dataDir, remove: async () => undefined };
  const args = ['--port', '0', '--otlp-port', '0', '--otlp-http-port', '0', '--dashboard-port', '0', '--statsd-port', '0', '--grpc-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dir.path, '--tick-seconds', '0.2', ...(options.args ?? [])];
  if (options.key !== undefined) args.push('--api-key', options.key);
  const settings = loadSettings(args, options.env ?? {});
  const server = await startServer(settings, { logger: pino({ level: process.env['FAULTLINE_TEST_LOG'] ?? 'silent' }), ...(options.now === undefined ? {} : { now: options.now }) });
  const api = `http://127.0.0.1:${server.ports.rest}/api/v2`;
  const otlp = `http://127.0.0.1:${server.ports.otlp}`;
  const headers = (): Record<string, string> => ({
    'content-type': 'application/json',
    ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }),
  });
  const parse = async (r: Response) => {
    const text = await r.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // keep the text
    }
    return { status: r.status, body, headers: r.headers };
  };
  return {
    server,
    api,
    otlp,
    dataDir: dir.path,
    key: options.key,
    get: async (path) => parse(await fetch(`${api}${path}`, { headers: headers() })),
    post: async (path, body, base = api) =>
      parse(await fetch(`${base}${path}`, { method: 'POST', headers: headers(), body: typeof body === 'string' ? body : JSON.stringify(body) })),
    stop: () => server.close(),
    remove: () => dir.remove(),
  };
}

/**
 * A test service for the enclosing mocha suite: started in a `before` hook, stopped and its data
 * directory removed in an `after` hook. The returned object stands for the service; read it inside
 * tests or hooks (a hook registered after this call runs after the start). `options` may be a
 * function, called in the `before` hook, for values known only then (a free port).
 */
export function useTestService(options: TestServiceOptions | (() => TestServiceOptions | Promise<TestServiceOptions>) = {}): TestService {
  let service: TestService | undefined;
  before(async () => {
    service = await startTestService(typeof options === 'function' ? await options() : options);
  });
  after(async () => {
    if (service === undefined) return;
    await service.stop();
    await service.remove();
    service = undefined;
  });
  const started = (): TestService => {
    if (service === undefined) throw new Error('the test service is not running: use it inside a test or a hook registered after useTestService');
    return service;
  };
  return {
    get server() {
      return started().server;
    },
    get api() {
      return started().api;
    },
    get otlp() {
      return started().otlp;
    },
    get dataDir() {
      return started().dataDir;
    },
    get key() {
      return started().key;
    },
    get: (path) => started().get(path),
    post: (path, body, base) => started().post(path, body, base),
    stop: () => started().stop(),
    remove: () => started().remove(),
  };
}

/** Polls `check` every 100 ms until it returns a value or `timeoutMs` passes. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await check();
    if (last !== undefined) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
