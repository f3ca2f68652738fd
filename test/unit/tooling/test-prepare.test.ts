/**
 * hack/test-prepare.sh (the pre-script of `npm test`) on a machine where it may install nothing:
 * a user without root or sudo, an empty cache and no Go, Maven or Java on PATH. It must not fail
 * the run and must print one line per missing piece naming the command that installs it; it must
 * download and build nothing. When the test runs as root (CI), the script runs as `nobody` through
 * setpriv(1), so the no-root branch is the one exercised either way.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from '../../support/control-plane.js';

const SCRIPT = join(REPO_ROOT, 'hack', 'test-prepare.sh');
const NOBODY = '65534';
/** What the script's no-root path runs; nothing that installs or builds (no go, mvn, java, sudo). */
const TOOLS = ['bash', 'id', 'date', 'dirname', 'mkdir', 'cat', 'sed', 'grep', 'tail', 'cut', 'uname', 'apt-get'];

/** A PATH of symlinks to the tools the script may use, nothing else. */
function linkTools(bin: string): void {
  mkdirSync(bin);
  for (const tool of TOOLS) {
    const found = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'].map((d) => join(d, tool)).find((p) => existsSync(p));
    if (found) symlinkSync(found, join(bin, tool));
  }
}

function run(root: string, bin: string, cache: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: bin, HOME: root, FAULTLINE_CACHE: cache, FAULTLINE_PROGRESS_SECONDS: '30' };
  const asRoot = process.getuid?.() === 0;
  const file = asRoot ? '/usr/bin/setpriv' : join(bin, 'bash');
  const args = asRoot
    ? ['--reuid', NOBODY, '--regid', NOBODY, '--clear-groups', join(bin, 'bash'), SCRIPT]
    : [SCRIPT];
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('hack/test-prepare.sh without root, Go, Maven or Java', function () {
  this.timeout(90_000);
  let root = '';
  let cache = '';
  let bin = '';

  before(function () {
    if (process.getuid?.() === 0 && !existsSync('/usr/bin/setpriv')) {
      throw new Error('running as root needs setpriv(1) (util-linux) to drop to nobody');
    }
    root = mkdtempSync(join(tmpdir(), 'faultline-prepare-'));
    chmodSync(root, 0o777);
    bin = join(root, 'bin');
    cache = join(root, 'cache');
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  it('exits 0, names the install command of each missing piece, and installs or builds nothing', async () => {
    linkTools(bin);
    mkdirSync(cache, { mode: 0o777 });
    chmodSync(cache, 0o777);

    const { code, stdout, stderr } = await run(root, bin, cache);
    expect(stderr, 'stderr').to.equal('');
    expect(code, stdout).to.equal(0);
    const lines = stdout.trim().split('\n');
    // Debian packages: one line naming the apt-get command, since it may not run it.
    const debs = lines.filter((l) => l.includes("run 'sudo apt-get install"));
    expect(debs, stdout).to.have.length.greaterThanOrEqual(1);
    expect(debs[0]).to.match(/missing .*golang-go/).and.match(/maven/).and.match(/default-jre-headless/);
    expect(stdout).to.not.contain('installing Debian packages');
    // Kafka jars, control plane and collector: the command that fetches or builds each.
    expect(stdout).to.contain("the Kafka tests need maven and java: run 'sudo apt-get install maven' then 'bash hack/install-kafka.sh'");
    expect(stdout).to.contain("install Go, then 'bash hack/build-control-plane.sh'");
    expect(stdout).to.contain("install Go, then 'bash hack/build-otelcol.sh'");
    // Nothing fetched or built: the cache holds at most the empty log folder.
    expect(readdirSync(cache).filter((f) => f !== 'logs')).to.deep.equal([]);
    expect(readdirSync(join(cache, 'logs'))).to.deep.equal([]);
  });
});
