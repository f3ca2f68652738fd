/**
 * Mocha root hooks (loaded through .mocharc.json `require`): when a test of a run that used the
 * real control plane fails, print the API server's and etcd's logs; at the end of the run, stop
 * the control plane if this run started it.
 */
import type { Context } from 'mocha';
import { controlPlaneLogTail, controlPlaneUsed, stopControlPlaneIfStarted } from './control-plane.js';

export const mochaHooks = {
  afterEach(this: Context): void {
    if (this.currentTest?.state === 'failed' && controlPlaneUsed()) {
      process.stderr.write(`\ncontrol-plane logs after failed test "${this.currentTest.fullTitle()}":\n`);
      process.stderr.write(`${controlPlaneLogTail()}\n`);
    }
  },
  async afterAll(this: Context): Promise<void> {
    this.timeout(90_000);
    await stopControlPlaneIfStarted();
  },
};
