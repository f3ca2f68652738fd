/**
 * bench/memory/pod-settings.ts (what `npm run bench:memory-soak` runs the service with): memory
 * quantities in bytes, and the project's own manifests, image and chart read and agreeing.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { quantityBytes, readPodSettings } from '../../../bench/memory/pod-settings.js';
import { REPO_ROOT } from '../../support/control-plane.js';

describe('bench/memory/pod-settings.ts', () => {
  it('reads memory quantities in bytes (binary and decimal suffixes)', () => {
    expect(quantityBytes('7680Mi')).to.equal(7680 * 1_048_576);
    expect(quantityBytes('2Gi')).to.equal(2_147_483_648);
    expect(quantityBytes('512M')).to.equal(512_000_000);
    expect(quantityBytes('1000')).to.equal(1000);
    expect(quantityBytes('1.5Gi')).to.equal(1_610_612_736);
    for (const bad of ['', 'Mi', '7680MB', '-1Gi', '1 Gi x']) expect(() => quantityBytes(bad), bad).to.throw(/not a memory quantity/);
  });

  it('any whole number of Mi is that many MiB (property)', () => {
    fc.assert(fc.property(fc.nat(1_000_000), (n) => quantityBytes(`${n}Mi`) === n * 1_048_576));
  });

  it("reads the shipped pod's memory settings from the manifests, the image and the chart", () => {
    const pod = readPodSettings(REPO_ROOT);
    // the values of manifests/base/deployment.yaml and the Dockerfile as they are
    expect(pod.limit).to.equal('5632Mi');
    expect(pod.limitBytes).to.equal(5632 * 1_048_576);
    expect(pod.env).to.deep.equal({ NODE_ENV: 'production', NODE_OPTIONS: '--max-old-space-size=2560 --max-semi-space-size=64 --expose-gc', MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(pod.nodeFlags).to.deep.equal(['--max-semi-space-size=64', '--expose-gc']);
  });

  it("malloc settings that differ between the manifests and the chart, the image or npm start are an error naming both", () => {
    const files = ['manifests/base/deployment.yaml', 'Dockerfile', 'manifests/helm/faultline/values.yaml', 'manifests/helm/faultline/templates/_pod.tpl', 'package.json'];
    const edits: [string, (text: string) => string, RegExp][] = [
      ['Dockerfile', (t) => t.replace('ENV MALLOC_MMAP_THRESHOLD_=131072', 'ENV MALLOC_MMAP_THRESHOLD_=65536'), /the Dockerfile's malloc settings .*65536.* are not the manifests' .*131072/],
      ['manifests/helm/faultline/templates/_pod.tpl', (t) => t.replace(/ *- \{name: MALLOC_MMAP_THRESHOLD_, value: "131072"\}\n/, ''), /the chart's malloc settings \{\} are not the manifests' .*131072/],
      ['package.json', (t) => t.replace('MALLOC_MMAP_THRESHOLD_=131072 ', 'MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TOP_PAD_=0 '), /npm start's malloc settings .*MALLOC_TOP_PAD_.* are not the manifests'/],
    ];
    for (const [file, edit, error] of edits) {
      const dir = mkdtempSync(join(tmpdir(), 'pod-settings-'));
      try {
        for (const f of files) cpSync(join(REPO_ROOT, f), join(dir, f), { recursive: true });
        const before = readFileSync(join(dir, file), 'utf8');
        expect(edit(before), file).to.not.equal(before);
        writeFileSync(join(dir, file), edit(before));
        expect(() => readPodSettings(dir), file).to.throw(error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it("a chart whose limit differs from the manifests' is an error naming both", () => {
    const dir = mkdtempSync(join(tmpdir(), 'pod-settings-'));
    try {
      for (const f of ['manifests/base/deployment.yaml', 'Dockerfile', 'manifests/helm/faultline/values.yaml', 'manifests/helm/faultline/templates/_pod.tpl', 'package.json']) cpSync(join(REPO_ROOT, f), join(dir, f), { recursive: true });
      const values = join(dir, 'manifests/helm/faultline/values.yaml');
      writeFileSync(values, readFileSync(values, 'utf8').replace('memory: 5632Mi', 'memory: 4Gi'));
      expect(() => readPodSettings(dir)).to.throw("the chart's memory limit 4Gi is not the manifests' 5632Mi");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
