/**
 * bench/memory/build-age.ts: the memory benches refuse a checkout whose dist/ is missing or older
 * than a source file (they would measure other code than the checkout's).
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staleBuild } from '../../../bench/memory/build-age.js';

describe('bench/memory/build-age.ts', () => {
  let project = '';
  const at = (iso: string): Date => new Date(iso);
  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'build-age-'));
    mkdirSync(join(project, 'api-server', 'src', 'analysis'), { recursive: true });
    writeFileSync(join(project, 'api-server', 'src', 'main.ts'), '');
    writeFileSync(join(project, 'api-server', 'src', 'analysis', 'core.ts'), '');
    utimesSync(join(project, 'api-server', 'src', 'main.ts'), at('2026-12-07T09:00:00Z'), at('2026-12-07T09:00:00Z'));
    utimesSync(join(project, 'api-server', 'src', 'analysis', 'core.ts'), at('2026-12-07T10:00:00Z'), at('2026-12-07T10:00:00Z'));
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  const build = (iso: string): void => {
    const main = join(project, 'dist', 'api-server', 'src', 'main.js');
    mkdirSync(join(project, 'dist', 'api-server', 'src'), { recursive: true });
    writeFileSync(main, '');
    utimesSync(main, at(iso), at(iso));
  };

  it('names a missing build and the command that makes it', () => {
    expect(staleBuild(project)).to.match(/dist\/api-server\/src\/main\.js does not exist: run `npm run build`/);
  });

  it('names the build and the newest source file (in a subfolder) when the build is older', () => {
    build('2026-12-07T09:55:00Z');
    const why = staleBuild(project);
    expect(why).to.include('built 2026-12-07T09:55:00.000Z');
    expect(why).to.include(join('analysis', 'core.ts'));
    expect(why).to.include('2026-12-07T10:00:00.000Z');
  });

  it('passes a build newer than every source file', () => {
    build('2026-12-07T10:00:01Z');
    expect(staleBuild(project)).to.equal(undefined);
  });
});
