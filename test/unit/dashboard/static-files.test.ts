import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import Koa from 'koa';
import { fileFor, isApiPath, serveDashboard } from '../../../api-server/src/dashboard/static-files.js';
import { makeTempDir } from '../../support/temp-dir.js';

const INDEX = '<!doctype html><title>Faultline</title><div id="app"></div>';
const BIG_JS = `export const x = ${JSON.stringify('a'.repeat(5000))};\n`;

async function rawGet(url: string): Promise<{ status: number; body: string }> {
  const { request } = await import('node:http');
  const u = new URL(url);
  const path = url.slice(u.origin.length);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function start(distDir: string): Promise<{ server: Server; base: string }> {
  const app = new Koa();
  app.use(serveDashboard(distDir));
  // stands in for the /api/v2 routes behind the middleware
  app.use((ctx) => {
    ctx.status = ctx.path.startsWith('/api/') ? 401 : 404;
    ctx.body = { error: ctx.status === 401 ? 'unauthorized' : 'not found', from: 'api' };
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('dashboard static files (Koa middleware)', () => {
  let dist: { path: string; remove: () => Promise<void> };
  let server: Server;
  let base: string;

  before(async () => {
    dist = await makeTempDir('dash-dist');
    const site = join(dist.path, 'site');
    await mkdir(join(site, 'assets'), { recursive: true });
    await writeFile(join(dist.path, 'secret.txt'), 'outside the served folder');
    await writeFile(join(site, 'index.html'), INDEX);
    await writeFile(join(site, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(join(site, 'assets', 'index-DC3TPnk6.js'), BIG_JS);
    await writeFile(join(site, 'assets', 'index-CeU28EaB.css'), 'body{margin:0}');
    ({ server, base } = await start(site));
  });
  after(async () => {
    server.close();
    await dist.remove();
  });

  it('serves index.html for / and for unknown view paths, revalidated, without a key', async () => {
    for (const path of ['/', '/fleet', '/w/shop/Deployment/cart']) {
      const r = await fetch(`${base}${path}`);
      expect(r.status, path).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(r.headers.get('cache-control')).to.equal('no-cache');
      expect(r.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(r.headers.get('content-security-policy')).to.include("connect-src 'self'");
      expect(await r.text()).to.equal(INDEX);
    }
  });

  it('serves hashed assets as immutable with their content types, gzipped when asked', async () => {
    const js = await fetch(`${base}/assets/index-DC3TPnk6.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(js.status).to.equal(200);
    expect(js.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(await js.text()).to.equal(BIG_JS);
    const css = await fetch(`${base}/assets/index-CeU28EaB.css`);
    expect(css.headers.get('content-type')).to.equal('text/css; charset=utf-8');
    const icon = await fetch(`${base}/favicon.svg`);
    expect(icon.headers.get('content-type')).to.equal('image/svg+xml');
    expect(icon.headers.get('cache-control')).to.equal('no-cache');

    const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      import('node:http').then(({ get }) =>
        get(`${base}/assets/index-DC3TPnk6.js`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts) }));
        }).on('error', reject),
      );
    });
    expect(raw.encoding).to.equal('gzip');
    expect(gunzipSync(raw.body).toString()).to.equal(BIG_JS);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(`${base}/favicon.svg`);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).to.match(/^W\/"/);
    const again = await fetch(`${base}/favicon.svg`, { headers: { 'if-none-match': etag } });
    expect(again.status).to.equal(304);
  });

  it('never shadows /api: those paths reach the routes behind it', async () => {
    for (const path of ['/api/v2/ruptures', '/api/v2/', '/api', '/api/v2/index.html']) {
      const r = await fetch(`${base}${path}`);
      expect(r.status, path).to.be.oneOf([401, 404]);
      expect(((await r.json()) as { from: string }).from, path).to.equal('api');
    }
    const post = await fetch(`${base}/`, { method: 'POST' });
    expect(((await post.json()) as { from: string }).from).to.equal('api');
  });

  it('passes missing files with an extension on (no HTML served as a script) and refuses to leave the folder', async () => {
    expect((await fetch(`${base}/assets/missing-AAAAAAAA.js`)).status).to.equal(404);
    // raw paths (fetch would normalise the dots away): never the file beside the folder
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const { status, body } = await rawGet(`${base}${path}`);
      expect(status, path).to.equal(404);
      expect(body, path).to.not.include('outside');
    }
    expect(fileFor('/srv/dist', '/../secret')).to.equal(undefined);
    expect(fileFor('/srv/dist', '/%2e%2e/secret')).to.equal(undefined);
    expect(fileFor('/srv/dist', '/a%00b')).to.equal(undefined);
    expect(fileFor('/srv/dist', '/%E0%A4%A')).to.equal(undefined);
    expect(fileFor('/srv/dist', '/')).to.equal('/srv/dist/index.html');
    expect(fileFor('/srv/dist', '/assets/a.js')).to.equal('/srv/dist/assets/a.js');
    expect(isApiPath('/api')).to.equal(true);
    expect(isApiPath('/apix')).to.equal(false);
  });

  it('says the page is not built when the folder is empty', async () => {
    const empty = await makeTempDir('dash-empty');
    const s = await start(join(empty.path, 'dist'));
    try {
      const r = await fetch(`${s.base}/`);
      expect(r.status).to.equal(503);
      expect(await r.json()).to.deep.equal({ error: 'dashboard not built: run npm run build', code: 'dashboard_not_built' });
    } finally {
      s.server.close();
      await empty.remove();
    }
  });
});
