/** The webhook HMAC: a value checked against `openssl dgst -sha256 -hmac`, the time window, tampering. */
import { expect } from 'chai';
import fc from 'fast-check';
import { signWebhook, verifyWebhookSignature } from '../../../../api-server/src/delivery/sinks/webhook-sink.js';

describe('webhook signature', () => {
  it('is HMAC-SHA256 over "<timestamp>.<body>" (printf %s \'1700000000.{"a":1}\' | openssl dgst -sha256 -hmac s3cret)', () => {
    expect(signWebhook('s3cret', 1_700_000_000, '{"a":1}')).to.equal('sha256=1698a50bc74d1ff1db85c4e0a5297c2ad9fdba245d5737cdb789e4cc6e098940');
  });

  it('verifies within five minutes and refuses older, newer, tampered, unsigned and malformed', () => {
    const body = '{"event":"rupture.state_changed"}';
    const sig = signWebhook('k', 1_000, body);
    expect(verifyWebhookSignature('k', '1000', body, sig, 1_000)).to.equal(true);
    expect(verifyWebhookSignature('k', '1000', body, sig, 1_300)).to.equal(true);
    expect(verifyWebhookSignature('k', '1000', body, sig, 1_301)).to.equal(false);
    expect(verifyWebhookSignature('k', '1000', body, sig, 699)).to.equal(false);
    expect(verifyWebhookSignature('k', '1000', `${body} `, sig, 1_000)).to.equal(false);
    expect(verifyWebhookSignature('other', '1000', body, sig, 1_000)).to.equal(false);
    expect(verifyWebhookSignature('k', '1001', body, sig, 1_000)).to.equal(false);
    expect(verifyWebhookSignature('k', undefined, body, sig, 1_000)).to.equal(false);
    expect(verifyWebhookSignature('k', '1000', body, undefined, 1_000)).to.equal(false);
    expect(verifyWebhookSignature('k', '1e3', body, sig, 1_000)).to.equal(false);
    expect(verifyWebhookSignature('k', '1000', body, 'sha256=00', 1_000)).to.equal(false);
  });

  it('property: a signature verifies only its own body and secret', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), fc.string(), fc.integer({ min: 0, max: 2 ** 31 }), (secret, body, other, ts) => {
        const sig = signWebhook(secret, ts, body);
        expect(verifyWebhookSignature(secret, String(ts), body, sig, ts)).to.equal(true);
        if (other !== body) expect(verifyWebhookSignature(secret, String(ts), other, sig, ts)).to.equal(false);
      }),
    );
  });
});
