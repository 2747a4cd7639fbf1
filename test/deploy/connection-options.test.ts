import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';
import { temporalConnectionOptions } from '../../src/temporal/connection-options.js';
import { lines, runCli } from '../cli/run-cli.js';
import { testCodecEnv } from '../setup/codec.js';
import { testTemporal } from '../setup/temporal.js';

const temporal = (env: Record<string, string>) => loadConfig(env).temporal;

describe('Temporal connection settings (TLS, API key)', () => {
  let dir: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tls-'));
    for (const name of ['ca.pem', 'cert.pem', 'key.pem']) await fs.writeFile(path.join(dir, name), `${name}\n`);
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('is plaintext with nothing set, as against the local dev server', async () => {
    assert.deepEqual(await temporalConnectionOptions(temporal({})), { address: '127.0.0.1:7233', tls: false });
  });

  it('reads the CA, client certificate and key files into mTLS options, with the server name override', async () => {
    const options = await temporalConnectionOptions(
      temporal({
        TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233',
        TEMPORAL_TLS_CA_PATH: path.join(dir, 'ca.pem'),
        TEMPORAL_TLS_CERT_PATH: path.join(dir, 'cert.pem'),
        TEMPORAL_TLS_KEY_PATH: path.join(dir, 'key.pem'),
        TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
      }),
    );
    assert.ok(typeof options.tls === 'object');
    assert.equal(options.tls.serverRootCACertificate?.toString(), 'ca.pem\n');
    assert.equal(options.tls.clientCertPair?.crt.toString(), 'cert.pem\n');
    assert.equal(options.tls.clientCertPair?.key.toString(), 'key.pem\n');
    assert.equal(options.tls.serverNameOverride, 'temporal.internal');
  });

  it('sends an API key over TLS verified by the system roots, unless TLS is switched off explicitly', async () => {
    assert.deepEqual(await temporalConnectionOptions(temporal({ TEMPORAL_API_KEY: 'k' })), {
      address: '127.0.0.1:7233',
      tls: true,
      apiKey: 'k',
    });
    const plain = await temporalConnectionOptions(temporal({ TEMPORAL_API_KEY: 'k', TEMPORAL_TLS: 'false' }));
    assert.equal(plain.tls, false);
    assert.equal((await temporalConnectionOptions(temporal({ TEMPORAL_TLS: 'true' }))).tls, true);
  });

  it('names the missing half when only the certificate or only the key is given', async () => {
    await assert.rejects(
      temporalConnectionOptions(temporal({ TEMPORAL_TLS_CERT_PATH: path.join(dir, 'cert.pem') })),
      (err: unknown) =>
        err instanceof ConfigError && /^Invalid configuration: TEMPORAL_TLS_KEY_PATH: /.test(err.message),
    );
    await assert.rejects(
      temporalConnectionOptions(temporal({ TEMPORAL_TLS_KEY_PATH: path.join(dir, 'key.pem') })),
      (err: unknown) =>
        err instanceof ConfigError && /^Invalid configuration: TEMPORAL_TLS_CERT_PATH: /.test(err.message),
    );
  });

  it('refuses TLS files when TEMPORAL_TLS=false', async () => {
    await assert.rejects(
      temporalConnectionOptions(temporal({ TEMPORAL_TLS: 'false', TEMPORAL_TLS_CA_PATH: path.join(dir, 'ca.pem') })),
      /TEMPORAL_TLS: /,
    );
  });

  it('stops the worker with one line naming the setting when a TLS file cannot be read, before connecting', async () => {
    const run = await runCli(['worker'], {
      ...testCodecEnv(),
      // A reachable server: the error must come from the files, not from the connection.
      TEMPORAL_ADDRESS: testTemporal().server.address,
      TEMPORAL_TLS_CERT_PATH: '/nonexistent/cert.pem',
      TEMPORAL_TLS_KEY_PATH: '/nonexistent/key.pem',
    });
    assert.equal(run.code, 1);
    const errors = lines(run.stderr);
    assert.equal(errors.length, 1, run.stderr);
    assert.match(errors[0]!, /TEMPORAL_TLS_CERT_PATH: cannot read \/nonexistent\/cert\.pem \(ENOENT\)/);
    assert.doesNotMatch(run.stdout, /Worker polling/);
  });

  it('stops the intake API the same way (every process connects through the same options)', async () => {
    const run = await runCli(['intake'], {
      ...testCodecEnv(),
      INTAKE_PORT: '0',
      INTAKE_API_KEY: 'k'.repeat(32),
      TEMPORAL_TLS_CA_PATH: path.join(dir, 'missing-ca.pem'),
    });
    assert.equal(run.code, 1);
    assert.deepEqual(lines(run.stderr), [
      `eligibility: Invalid configuration: TEMPORAL_TLS_CA_PATH: cannot read ${path.join(dir, 'missing-ca.pem')} (ENOENT)`,
    ]);
  });
});
