/**
 * With authentication off (no SVC_API_KEY, development) the dashboard's key form says that any
 * value works, and any value does (issue 35). Headless Chromium against the real server.
 */
import { resolve } from 'node:path';
import { expect } from 'chai';
import type { BrowserContext } from 'playwright-core';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import type { TestService } from '../support/service.js';
import { startTestService } from '../support/service.js';
import { makeTempDir } from '../support/temp-dir.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe('dashboard key form with authentication off (headless Chromium)', function () {
  this.timeout(120_000);
  let svc: TestService;
  let browser: BrowserContext;
  let profile: { path: string; remove: () => Promise<void> };

  before(async () => {
    await build({ root: resolve('dashboard'), logLevel: 'warn' });
    svc = await startTestService();
    profile = await makeTempDir('chromium-profile');
    browser = await chromium.launchPersistentContext(profile.path, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  });
  after(async () => {
    await browser?.close();
    await svc?.stop();
    await svc?.remove();
    await profile?.remove();
  });

  it('says that any value works, and an arbitrary value opens the fleet view', async () => {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`http://127.0.0.1:${svc.server.ports.dashboard}/`);
    const hint = page.locator('#auth-off');
    await hint.waitFor({ timeout: 10_000 });
    expect(await hint.textContent()).to.contain('any value works');
    await page.getByLabel('API key').fill('anything');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Fleet' }).waitFor({ timeout: 10_000 });
  });
});
