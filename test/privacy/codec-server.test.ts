import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { EncryptionCodec } from '../../src/codec/encryption-codec.js';
import { createCodecServer } from '../../apps/codec-server/server.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { testCodecKeys } from '../setup/codec.js';

const TOKEN = 'a-token-of-at-least-16-chars';
const UI = 'http://localhost:8233';

describe('codec server', () => {
  let app: FastifyInstance;
  let encrypted: { metadata: Record<string, string>; data: string };
  const codec = new EncryptionCodec(testCodecKeys());

  before(async () => {
    app = createCodecServer({
      codec,
      token: TOKEN,
      origins: [UI],
      namespace: 'default',
      logger: createLogger(loadConfig({ LOG_LEVEL: 'silent' })),
    });
    const [payload] = await codec.encode([
      { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"lastName":"Secretworth"}') },
    ]);
    encrypted = {
      metadata: Object.fromEntries(
        Object.entries(payload!.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
      ),
      data: Buffer.from(payload!.data!).toString('base64'),
    };
  });
  after(async () => app?.close());

  const decode = (headers: Record<string, string>, url = '/decode') =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: { payloads: [encrypted] },
    });

  it('decodes for a caller with the token, from the allowed origin', async () => {
    const res = await decode({ authorization: `Bearer ${TOKEN}`, origin: UI, 'x-namespace': 'default' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], UI);
    const body = res.json<{ payloads: { data: string }[] }>();
    assert.equal(Buffer.from(body.payloads[0]!.data, 'base64').toString(), '{"lastName":"Secretworth"}');
  });

  it('takes the token from the endpoint path, as Temporal UI is configured', async () => {
    const res = await decode({ origin: UI }, `/t/${TOKEN}/decode`);
    assert.equal(res.statusCode, 200);
  });

  it('refuses a request without the token, or with a wrong one', async () => {
    assert.equal((await decode({ origin: UI })).statusCode, 401);
    assert.equal((await decode({ authorization: 'Bearer wrong-token-wrong-token' })).statusCode, 401);
    assert.equal((await decode({}, '/t/wrong-token-wrong-token/decode')).statusCode, 401);
  });

  it('refuses other origins, even with the token', async () => {
    const res = await decode({ authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/decode',
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(preflight.statusCode, 403);
  });

  it('answers the browser preflight of the allowed origin', async () => {
    const res = await app.inject({ method: 'OPTIONS', url: '/decode', headers: { origin: UI } });
    assert.equal(res.statusCode, 204);
    assert.match(String(res.headers['access-control-allow-headers']), /X-Namespace/);
  });

  it('honours X-Namespace: another namespace is not decoded here', async () => {
    const res = await decode({ authorization: `Bearer ${TOKEN}`, 'x-namespace': 'someone-else' });
    assert.equal(res.statusCode, 403);
  });

  it('encodes too, for the CLI and UI sending input', async () => {
    const plain = {
      metadata: { encoding: Buffer.from('json/plain').toString('base64') },
      data: Buffer.from('1').toString('base64'),
    };
    const res = await app.inject({
      method: 'POST',
      url: '/encode',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      payload: { payloads: [plain] },
    });
    assert.equal(res.statusCode, 200);
    const out = res.json<{ payloads: { metadata: Record<string, string> }[] }>();
    assert.equal(Buffer.from(out.payloads[0]!.metadata.encoding!, 'base64').toString(), 'binary/encrypted');
  });
});
