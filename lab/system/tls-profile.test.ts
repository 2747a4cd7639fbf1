import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../testing/run-cli.js';
import { CLI_ARGV, compiledEnv } from '../../testing/compiled.js';
import { runRole } from '../../testing/run-role.js';
import { workflowBundle } from '../../testing/bundle.js';
import { testCodecEnv } from '../../testing/codec.js';
import { testTemporal } from '../../testing/temporal.js';
import { makeCertificates, startTlsProxy, type TlsProxy } from '../../testing/tls-proxy.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER_NAME = 'temporal.test';
const SECRET = 's'.repeat(32);

// Every process that talks to Temporal connects with the profile of a TOML config file, as a Temporal Cloud user's
// machine has one: the dev server is reached only through a TLS proxy that requires the profile's client certificate,
// and it is addressed by the profile alone (TEMPORAL_ADDRESS is unset for these processes). The profile's API key goes
// with it; a byte proxy cannot see it inside TLS and the dev server ignores it, so connection-options.test.ts checks
// that it reaches the connection options.
describe('a TOML profile with mTLS and an API key, honoured by every role', function () {
  this.timeout(90_000);
  let dir: string;
  let proxy: TlsProxy;
  let env: Record<string, string>;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'temporal-profile-'));
    const certs = await makeCertificates(dir, SERVER_NAME);
    proxy = await startTlsProxy(testTemporal().server.address, certs);
    await fs.writeFile(
      path.join(dir, 'temporal.toml'),
      `# as \`temporal config set --profile secure …\` writes it
[profile.default]
address = "127.0.0.1:1"

[profile.secure]
address = "${proxy.address}"
namespace = "${testTemporal().server.namespace}"
api_key = "test-api-key"
[profile.secure.tls]
client_cert_path = "${certs.clientCert}"
client_key_path = "${certs.clientKey}"
server_ca_cert_path = "${certs.ca}"
server_name = "${SERVER_NAME}"

[profile.no-client-cert]
address = "${proxy.address}"
namespace = "${testTemporal().server.namespace}"
[profile.no-client-cert.tls]
server_ca_cert_path = "${certs.ca}"
server_name = "${SERVER_NAME}"
`,
    );
    // The suite's one bundle, so the worker does not bundle again at start (the connection is what is tested here).
    const bundleFile = path.join(dir, 'workflow-bundle.js');
    await fs.writeFile(bundleFile, (await workflowBundle()).code);
    env = {
      ...testCodecEnv(),
      WORKER_WORKFLOW_BUNDLE: bundleFile,
      TEMPORAL_ADDRESS: '',
      TEMPORAL_NAMESPACE: '',
      TEMPORAL_CONFIG_FILE: path.join(dir, 'temporal.toml'),
      TEMPORAL_PROFILE: 'secure',
      WEBHOOK_PORT: '0',
      WEBHOOK_SIGNING_SECRET: SECRET,
      INTAKE_PORT: '0',
      INTAKE_API_KEY: SECRET,
    };
  });
  after(async () => {
    await proxy.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  for (const [role, ready] of [
    ['worker', /Worker polling task queue \S+ on 127\.0\.0\.1:\d+/],
    ['receiver', /Webhook receiver listening on/],
    ['intake', /listening on/],
  ] as const) {
    it(`${role}: connects through the profile's mTLS, checking the server's name against the profile's CA`, async () => {
      const before = proxy.handshakes.length;
      const running = await runRole([...CLI_ARGV, role], { env: { ...compiledEnv(), ...env }, cwd: ROOT, ready });
      assert.match(running.output(), new RegExp(proxy.address.replace(/\./g, '\\.')), 'the address is the profile’s');
      assert.equal(await running.stop(), 0, running.output());
      const seen = proxy.handshakes.slice(before);
      assert.ok(seen.length > 0, 'it connected through the proxy');
      for (const handshake of seen)
        assert.deepEqual(handshake, { serverName: SERVER_NAME, client: 'eligibility-client' });
    });
  }

  it('a one-shot command (eligibility list) connects the same way', async () => {
    const before = proxy.handshakes.length;
    const run = await runCli(['list'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(proxy.handshakes.length > before);
  });

  it('without the client certificate the same server refuses it: the proxy really demands mTLS', async () => {
    const run = await runCli(['list'], { ...env, TEMPORAL_PROFILE: 'no-client-cert' });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /cannot reach the Temporal server at 127\.0\.0\.1:\d+|unavailable/);
  });
});
