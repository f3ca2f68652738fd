/**
 * The README's quick tour, run as written against a started server (issue 35): the shell block
 * under "## Quick tour" is read from README.md, so the README cannot drift from what works. Only
 * three things are changed: the ports (the test server listens on free ones), `curl -N` on the
 * live stream gets `--max-time` (it never ends by itself), and every curl writes its status, method
 * and URL to stderr (a shell function in front of the block), which is what the test checks: every
 * command of the tour, in order, answered 2xx, and its polls ended by their condition, not by
 * running out of time.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from '../../support/control-plane.js';
import { useTestService } from '../../support/service.js';

interface Call {
  status: number;
  method: string;
  path: string;
}

/** The first ```sh block after the "## Quick tour" heading. */
function tourBlock(readme: string): string {
  const at = readme.indexOf('\n## Quick tour');
  if (at < 0) throw new Error('README.md has no "## Quick tour" section');
  const match = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (match === null) throw new Error('the quick tour has no sh block');
  return match[1]!;
}

function runBash(script: string, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('README quick tour, end to end (issue 35)', function () {
  this.timeout(300_000);

  const svc = useTestService();

  it('every command answers 2xx, in the README order, and the polls end by their condition', async () => {
    const block = tourBlock(await readFile(join(REPO_ROOT, 'README.md'), 'utf8'));
    const { rest, otlp } = svc.server.ports;
    const script = [
      `curl() { command curl -w '%{stderr}@@ %{http_code} %{method} %{url_effective}\\n' "$@"; }`,
      block
        .replaceAll('localhost:8080', `127.0.0.1:${rest}`)
        .replaceAll('localhost:4317', `127.0.0.1:${otlp}`)
        .replace('curl -N ', 'curl -N --max-time 3 '),
    ].join('\n');
    const { stdout, stderr } = await runBash(script, 280_000);
    const calls: Call[] = stderr
      .split('\n')
      .filter((l) => l.startsWith('@@ '))
      .map((l) => {
        const [, status, method, url] = l.split(' ');
        return { status: Number(status), method: method!, path: new URL(url!).pathname };
      });

    // the polls: repeated GETs of one path collapse to their last answer
    const distinct = calls.filter((c, i) => i === calls.length - 1 || !(calls[i + 1]!.path === c.path && calls[i + 1]!.method === c.method));
    expect(distinct.map((c) => `${c.method} ${c.path}`), stderr).to.deep.equal([
      'POST /v1/metrics',
      'GET /api/v2/ruptures',
      'GET /api/v2/rupture/shop/Deployment/cart',
      'GET /api/v2/kpi/stress/shop/cart',
      'POST /api/v2/sim/inject',
      'GET /api/v2/rupture/demo/payment-api',
      'GET /api/v2/actions',
      'GET /api/v2/explain/demo%2FDeployment%2Fpayment-api/narrative',
      'POST /api/v2/suppressions',
      'POST /api/v2/context',
      'GET /api/v2/events',
    ]);
    for (const c of distinct) expect(c.status, `${c.method} ${c.path}\n${stdout}`).to.be.within(200, 299);
    // the waits ended by their condition: cart is analysed, payment-api has a rupture
    expect(stdout).to.match(/"status": ?"(calibrating|active)"/);
    const polls = (path: string): number => calls.filter((c) => c.path === path).length;
    expect(polls('/api/v2/rupture/shop/Deployment/cart')).to.be.below(92);
    expect(polls('/api/v2/rupture/demo/payment-api')).to.be.below(122);
    expect(stdout).to.contain('"injection_id"');
    expect(stdout).to.contain('"narrative"');
  });
});
