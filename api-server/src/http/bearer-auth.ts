/**
 * Bearer-key authentication (interface "Authentication", api.md §1.7): SHA-256 digests compared
 * with timingSafeEqual so neither content nor length leaks; no key and production → 503; no key
 * otherwise → open (a warning is logged once at start).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { AuthVerdict } from '../model/auth-verdict.js';
import { noKeyConfigured, unauthorized } from '../model/http-errors.js';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export class BearerKey {
  private readonly expected: Buffer | undefined;

  constructor(
    apiKey: string | undefined,
    private readonly production: boolean,
  ) {
    this.expected = apiKey === undefined || apiKey === '' ? undefined : digest(apiKey);
  }

  get enabled(): boolean {
    return this.expected !== undefined;
  }

  /** for /health and the dashboard's key form: a key is checked, any value works, or every call is 503 */
  get mode(): 'required' | 'off' | 'unconfigured' {
    if (this.expected !== undefined) return 'required';
    return this.production ? 'unconfigured' : 'off';
  }

  /** `header` is the Authorization value (HTTP header or gRPC metadata). */
  check(header: string | undefined): AuthVerdict {
    if (this.expected === undefined) return this.production ? 'no_key' : 'ok';
    if (header === undefined) return 'unauthorized';
    const match = /^bearer ([^ ]+)$/i.exec(header);
    if (match === null) return 'unauthorized';
    return timingSafeEqual(digest(match[1]!), this.expected) ? 'ok' : 'unauthorized';
  }

  middleware() {
    return async (ctx: Context, next: Next): Promise<void> => {
      const verdict = this.check(ctx.get('authorization') || undefined);
      if (verdict === 'no_key') throw noKeyConfigured();
      if (verdict === 'unauthorized') throw unauthorized();
      await next();
    };
  }
}
