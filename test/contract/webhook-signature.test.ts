import assert from 'node:assert/strict';
import { parseSignatureHeader, signWebhook, verifyWebhookSignature } from '../../src/contract/webhook-signature.js';

describe('contract: webhook signatures', () => {
  const body = '{"id":"evt_1","type":"sandbox.discovery.updated","data":{}}';

  it('signs as t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const header = signWebhook('secret', 1_700_000_000.9, body);
    assert.match(header, /^t=1700000000,v1=[0-9a-f]{64}$/);
    assert.deepEqual(parseSignatureHeader(header)?.timestampSeconds, 1_700_000_000);
  });

  it('verifies its own signature within the tolerance', () => {
    const header = signWebhook('secret', 1000, body);
    assert.ok(verifyWebhookSignature('secret', header, body, { nowSeconds: 1200 }));
    assert.ok(verifyWebhookSignature('secret', header, Buffer.from(body), { nowSeconds: 1000 }));
  });

  it('refuses another secret, another body, an old timestamp and malformed headers', () => {
    const header = signWebhook('secret', 1000, body);
    assert.ok(!verifyWebhookSignature('other', header, body, { nowSeconds: 1000 }));
    assert.ok(!verifyWebhookSignature('secret', header, `${body} `, { nowSeconds: 1000 }));
    assert.ok(!verifyWebhookSignature('secret', header, body, { nowSeconds: 1301 }));
    assert.ok(!verifyWebhookSignature('secret', header, body, { nowSeconds: 1301, toleranceSeconds: 300 }));
    for (const bad of [undefined, '', 't=1000', 'v1=abc', 't=x,v1=' + 'a'.repeat(64), header.replace('v1=', 'v1=zz')]) {
      assert.ok(!verifyWebhookSignature('secret', bad, body, { nowSeconds: 1000 }), String(bad));
    }
  });

  it('accepts any of several v1 signatures (secret rotation)', () => {
    const good = signWebhook('new', 1000, body);
    const header = `t=1000,v1=${'0'.repeat(64)},${good.split(',')[1]}`;
    assert.ok(verifyWebhookSignature('new', header, body, { nowSeconds: 1000 }));
  });
});
