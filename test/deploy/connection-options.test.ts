import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';
import { onLocalDevServer } from '../../apps/dev/stack.js';
import { temporalConnectionOptions } from '../../src/temporal/connection-options.js';
import { lines, runCli } from '../../testing/run-cli.js';
import { testCodecEnv } from '../../testing/codec.js';
import { testTemporal } from '../../testing/temporal.js';

const temporal = (env: Record<string, string>) => loadConfig('worker', env).temporal;
const configError = (pattern: RegExp) => (err: unknown) => err instanceof ConfigError && pattern.test(err.message);

describe('Temporal connection settings (standard variables, TOML profiles)', () => {
  let dir: string;
  const file = (name: string) => path.join(dir, name);
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tls-'));
    for (const name of ['ca.pem', 'cert.pem', 'key.pem']) await fs.writeFile(file(name), `${name}\n`);
    await fs.writeFile(
      file('temporal.toml'),
      `
[profile.default]
address = "127.0.0.1:7233"

[profile.cloud]
address = "ns.acct.tmprl.cloud:7233"
namespace = "ns.acct"
api_key = "profile-api-key"
[profile.cloud.tls]
client_cert_path = "${file('cert.pem')}"
client_key_path = "${file('key.pem')}"
server_ca_cert_path = "${file('ca.pem')}"
server_name = "temporal.internal"
[profile.cloud.grpc_meta]
x-tenant = "clinic-7"

[profile.broken]
address = "ns.acct.tmprl.cloud:7233"
[profile.broken.tls]
client_cert_path = "${file('missing-cert.pem')}"
client_key_path = "${file('key.pem')}"
`,
    );
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('is plaintext to the local dev server with nothing set', async () => {
    const config = temporal({});
    assert.equal(config.namespace, 'default');
    assert.deepEqual(await temporalConnectionOptions(config), { address: '127.0.0.1:7233', tls: false });
  });

  it("reads Temporal's standard TLS variables into mTLS options, with the server name", async () => {
    const options = await temporalConnectionOptions(
      temporal({
        TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233',
        TEMPORAL_TLS_SERVER_CA_CERT_PATH: file('ca.pem'),
        TEMPORAL_TLS_CLIENT_CERT_PATH: file('cert.pem'),
        TEMPORAL_TLS_CLIENT_KEY_PATH: file('key.pem'),
        TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
      }),
    );
    assert.ok(typeof options.tls === 'object');
    assert.equal(Buffer.from(options.tls.serverRootCACertificate!).toString(), 'ca.pem\n');
    assert.equal(Buffer.from(options.tls.clientCertPair!.crt).toString(), 'cert.pem\n');
    assert.equal(Buffer.from(options.tls.clientCertPair!.key).toString(), 'key.pem\n');
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
    // Compose passes unset variables as empty strings: empty is unset, not "TLS off".
    assert.equal((await temporalConnectionOptions(temporal({ TEMPORAL_API_KEY: 'k', TEMPORAL_TLS: '' }))).tls, true);
  });

  it('connects with the profile TEMPORAL_PROFILE names in TEMPORAL_CONFIG_FILE: address, namespace, API key, mTLS', async () => {
    const config = temporal({ TEMPORAL_CONFIG_FILE: file('temporal.toml'), TEMPORAL_PROFILE: 'cloud' });
    assert.equal(config.address, 'ns.acct.tmprl.cloud:7233');
    assert.equal(config.namespace, 'ns.acct');
    const options = await temporalConnectionOptions(config);
    assert.equal(options.apiKey, 'profile-api-key');
    assert.deepEqual(options.metadata, { 'x-tenant': 'clinic-7' });
    assert.ok(typeof options.tls === 'object');
    assert.equal(Buffer.from(options.tls.clientCertPair!.crt).toString(), 'cert.pem\n');
    assert.equal(Buffer.from(options.tls.serverRootCACertificate!).toString(), 'ca.pem\n');
    assert.equal(options.tls.serverNameOverride, 'temporal.internal');
  });

  it('lets each standard variable override its setting of the profile, and reads the `default` profile unnamed', async () => {
    const config = temporal({
      TEMPORAL_CONFIG_FILE: file('temporal.toml'),
      TEMPORAL_PROFILE: 'cloud',
      TEMPORAL_ADDRESS: 'other.tmprl.cloud:7233',
      TEMPORAL_NAMESPACE: 'other',
      TEMPORAL_API_KEY: 'variable-api-key',
    });
    assert.deepEqual(
      [config.address, config.namespace, config.apiKey],
      ['other.tmprl.cloud:7233', 'other', 'variable-api-key'],
    );
    assert.equal((await temporalConnectionOptions(config)).apiKey, 'variable-api-key');
    assert.equal(temporal({ TEMPORAL_CONFIG_FILE: file('temporal.toml') }).address, '127.0.0.1:7233');
  });

  it('finds the config file where the Temporal CLI keeps it ($XDG_CONFIG_HOME/temporalio/temporal.toml)', async () => {
    await fs.mkdir(file('xdg/temporalio'), { recursive: true });
    await fs.copyFile(file('temporal.toml'), file('xdg/temporalio/temporal.toml'));
    assert.equal(temporal({ XDG_CONFIG_HOME: file('xdg'), TEMPORAL_PROFILE: 'cloud' }).namespace, 'ns.acct');
    // Without a file there is no profile to miss: the local defaults apply.
    assert.equal(temporal({ XDG_CONFIG_HOME: file('nowhere') }).address, '127.0.0.1:7233');
  });

  it('names the file, the profile or the setting at fault, never echoing the file (it holds API keys)', async () => {
    assert.throws(
      () => temporal({ TEMPORAL_CONFIG_FILE: file('missing.toml') }),
      configError(/^Invalid configuration: TEMPORAL_CONFIG_FILE: cannot read .*missing\.toml \(ENOENT\)$/),
    );
    assert.throws(
      () => temporal({ TEMPORAL_CONFIG_FILE: file('temporal.toml'), TEMPORAL_PROFILE: 'staging' }),
      configError(/^Invalid configuration: TEMPORAL_PROFILE: no profile "staging" in the Temporal config file$/),
    );
    await fs.writeFile(file('bad.toml'), '[profile.x]\napi_key = "secret-key-text\n');
    assert.throws(
      () => temporal({ TEMPORAL_CONFIG_FILE: file('bad.toml') }),
      (err: unknown) =>
        configError(/^Invalid configuration: TEMPORAL_CONFIG_FILE: not valid TOML \(line 2, column \d+\)$/)(err) &&
        !(err as Error).message.includes('secret-key-text'),
    );
    await assert.rejects(
      temporalConnectionOptions(temporal({ TEMPORAL_CONFIG_FILE: file('temporal.toml'), TEMPORAL_PROFILE: 'broken' })),
      configError(
        /^Invalid configuration: profile "broken" tls\.client_cert_path: cannot read .*missing-cert\.pem \(ENOENT\)$/,
      ),
    );
  });

  it('leaves a profile out of the dev server `eligibility dev` starts: local and plaintext, placed by the variables', async () => {
    const config = loadConfig('worker', { TEMPORAL_CONFIG_FILE: file('temporal.toml'), TEMPORAL_PROFILE: 'cloud' });
    const local = onLocalDevServer(config);
    assert.equal(local.codec.server.namespace, 'default');
    assert.deepEqual(await temporalConnectionOptions(local.temporal), { address: '127.0.0.1:7233', tls: false });
    const placed = onLocalDevServer(
      loadConfig('worker', {
        TEMPORAL_CONFIG_FILE: file('temporal.toml'),
        TEMPORAL_PROFILE: 'cloud',
        TEMPORAL_ADDRESS: '127.0.0.1:7460',
      }),
    );
    assert.equal(placed.temporal.address, '127.0.0.1:7460');
  });

  it('names the missing half when only the certificate or only the key is given', async () => {
    await assert.rejects(
      temporalConnectionOptions(temporal({ TEMPORAL_TLS_CLIENT_CERT_PATH: file('cert.pem') })),
      configError(/^Invalid configuration: TEMPORAL_TLS_CLIENT_KEY_PATH: required with TEMPORAL_TLS_CLIENT_CERT_PATH$/),
    );
    await assert.rejects(
      temporalConnectionOptions(temporal({ TEMPORAL_TLS_CLIENT_KEY_PATH: file('key.pem') })),
      configError(/^Invalid configuration: TEMPORAL_TLS_CLIENT_CERT_PATH: /),
    );
  });

  it('refuses TLS files when TEMPORAL_TLS=false', async () => {
    await assert.rejects(
      temporalConnectionOptions(temporal({ TEMPORAL_TLS: 'false', TEMPORAL_TLS_SERVER_CA_CERT_PATH: file('ca.pem') })),
      configError(/TEMPORAL_TLS: turns TLS off/),
    );
  });

  it("refuses the project's former TLS variables, naming Temporal's, instead of ignoring them", () => {
    assert.throws(
      () => temporal({ TEMPORAL_TLS_CERT_PATH: file('cert.pem') }),
      configError(
        /^Invalid configuration: TEMPORAL_TLS_CERT_PATH: is no longer read: set TEMPORAL_TLS_CLIENT_CERT_PATH$/,
      ),
    );
  });

  it('stops the worker with one line naming the setting when a TLS file cannot be read, before connecting', async () => {
    const run = await runCli(['worker'], {
      ...testCodecEnv(),
      // A reachable server: the error must come from the files, not from the connection.
      TEMPORAL_ADDRESS: testTemporal().server.address,
      TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/cert.pem',
      TEMPORAL_TLS_CLIENT_KEY_PATH: '/nonexistent/key.pem',
    });
    assert.equal(run.code, 1);
    const errors = lines(run.stderr);
    assert.equal(errors.length, 1, run.stderr);
    assert.match(errors[0]!, /TEMPORAL_TLS_CLIENT_CERT_PATH: cannot read \/nonexistent\/cert\.pem \(ENOENT\)/);
    assert.doesNotMatch(run.stdout, /Worker polling/);
  });

  it('stops the intake API the same way (every process connects through the same options)', async () => {
    const run = await runCli(['intake'], {
      ...testCodecEnv(),
      INTAKE_PORT: '0',
      INTAKE_API_KEY: 'k'.repeat(32),
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: file('missing-ca.pem'),
    });
    assert.equal(run.code, 1);
    assert.deepEqual(lines(run.stderr), [
      `eligibility: Invalid configuration: TEMPORAL_TLS_SERVER_CA_CERT_PATH: cannot read ${file('missing-ca.pem')} (ENOENT)`,
    ]);
  });
});
