/**
 * The dashboard's built files (dashboard/dist) on the dashboard port, without a key (runtime.md,
 * issue 9). GET/HEAD only; `/api` and everything under it (and /metrics, /health, /ready,
 * /version) is never touched, so the /api/v2 routes
 * and their auth behind this middleware stay exactly as on the REST port. `/` and unknown paths
 * without a file extension answer index.html (single-page app); hashed files under /assets/ are
 * cached as immutable, everything else is revalidated. Text files are gzipped once and kept.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Context, Middleware, Next } from 'koa';
import { OPEN_ROUTES_AT_ROOT } from '../http/routes/misdirected-routes.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.webmanifest', '.txt', '.map']);
/** Vite names built assets `name-<hash>.ext` under /assets/ */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy':
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
};

interface CachedFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  gzipped: Buffer | undefined;
  etag: string;
}

/** The directory dashboard/dist of the package this module belongs to (source or compiled tree). */
export function defaultDashboardDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dashboard', 'dist');
    const parent = dirname(dir);
    if (parent === dir) return resolve('dashboard', 'dist');
    dir = parent;
  }
}

/**
 * True for `/api` and every path below it: those belong to the REST routes, never to the files.
 * So do /metrics, /health, /ready and /version: a Prometheus scrape of the dashboard port's
 * /metrics gets the 404 naming /api/v2/metrics, not the page's HTML with a 200.
 */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || (OPEN_ROUTES_AT_ROOT as readonly string[]).includes(path);
}

/** Maps a request path to a file path inside `root`, or undefined when it would leave it. */
export function fileFor(root: string, requestPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = resolve(root, relative);
  return full === root || full.startsWith(root + sep) ? full : undefined;
}

export function serveDashboard(distDir: string): Middleware {
  const root = resolve(distDir);
  const cache = new Map<string, CachedFile>();

  const load = async (file: string): Promise<CachedFile | undefined> => {
    let info;
    try {
      info = await stat(file);
    } catch {
      return undefined;
    }
    if (!info.isFile()) return undefined;
    const hit = cache.get(file);
    if (hit !== undefined && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit;
    const body = await readFile(file);
    const entry: CachedFile = {
      mtimeMs: info.mtimeMs,
      size: info.size,
      body,
      gzipped: COMPRESSIBLE.has(extname(file)) && body.length > 1024 ? gzipSync(body) : undefined,
      etag: `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
    };
    cache.set(file, entry);
    return entry;
  };

  const send = (ctx: Context, file: string, entry: CachedFile, cacheControl: string): void => {
    ctx.set(SECURITY_HEADERS);
    ctx.set('Cache-Control', cacheControl);
    ctx.set('ETag', entry.etag);
    ctx.set('Vary', 'Accept-Encoding');
    ctx.type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    if (ctx.get('if-none-match') === entry.etag) {
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    const gzip = entry.gzipped !== undefined && /\bgzip\b/.test(ctx.get('accept-encoding'));
    if (gzip) ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzip ? entry.gzipped : entry.body;
  };

  return async (ctx: Context, next: Next): Promise<void> => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isApiPath(ctx.path)) return next();
    const file = fileFor(root, ctx.path);
    if (file !== undefined) {
      const entry = await load(file);
      if (entry !== undefined) {
        send(ctx, file, entry, HASHED_ASSET.test(ctx.path) ? IMMUTABLE : REVALIDATE);
        return;
      }
    }
    // single-page app: a path without a file extension is a view of the page
    const last = ctx.path.split('/').pop() ?? '';
    if (last.includes('.')) return next();
    const indexFile = join(root, 'index.html');
    const index = await load(indexFile);
    if (index === undefined) {
      ctx.status = 503;
      ctx.body = { error: 'dashboard not built: run npm run build', code: 'dashboard_not_built' };
      return;
    }
    send(ctx, indexFile, index, REVALIDATE);
  };
}
