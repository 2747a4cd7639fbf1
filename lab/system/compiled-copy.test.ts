import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { runRole } from '../../testing/run-role.js';
import { testCodecEnv } from '../../testing/codec.js';
import { testDatabaseUrl } from '../../testing/database.js';
import { testTemporal } from '../../testing/temporal.js';
import { buildProductionCopy } from '../../testing/production-copy.js';

const ROLES = ['worker', 'receiver', 'intake', 'codec-server', 'sandbox', 'dev'];
const SECRET = 's'.repeat(32);

/** The settings each role needs to start, on free ports, against the test run's dev server. */
function roleEnv(): Record<string, string> {
  return {
    ...testCodecEnv(),
    TEMPORAL_ADDRESS: testTemporal().server.address,
    WEBHOOK_PORT: '0',
    WEBHOOK_SIGNING_SECRET: SECRET,
    INTAKE_PORT: '0',
    INTAKE_API_KEY: SECRET,
    CODEC_SERVER_PORT: '0',
    CODEC_TOKEN_SECRET: SECRET,
    DATABASE_URL: testDatabaseUrl(),
  };
}

// The production build as a production install runs it (testing/production-copy.ts): the compiled code, without
// tsx or any other dev dependency.
describe('compiled production build (npm run build, npm ci --omit=dev)', function () {
  this.timeout(120_000);
  let dir: string;
  let bin: string;
  before(async () => {
    dir = await buildProductionCopy();
    bin = path.join(dir, 'bin/eligibility.js');
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  const run = (args: string[], env: Record<string, string> = {}) =>
    promisify(execFile)(process.execPath, [bin, ...args], { cwd: dir, env: { ...process.env, ...env } });

  it('emits the compiled code and the workflow bundle, and no TypeScript', async () => {
    const files = await fs.readdir(path.join(dir, 'dist'), { recursive: true });
    assert.ok(files.includes('workflow-bundle.js'));
    assert.ok(files.includes('workflow-bundle-traced.js'));
    assert.ok(files.includes(path.join('apps', 'cli', 'main.js')));
    assert.ok(files.includes(path.join('src', 'codec', 'failure-converter.cjs')));
    assert.deepEqual(
      files.filter((f) => f.endsWith('.ts')),
      [],
    );
  });

  it('answers --help, and every role its --help, without tsx', async () => {
    await assert.rejects(fs.access(path.join(dir, 'node_modules/tsx')), 'tsx is not installed');
    const { stdout } = await run(['--help']);
    assert.match(stdout, /^Usage: eligibility /);
    for (const role of ROLES) {
      const help = await run([role, '--help']);
      assert.match(help.stdout, new RegExp(`^Usage: eligibility ${role} `), role);
    }
  });

  // Each connects to the test run's Temporal server (the codec server only when it first describes a workflow).
  for (const [role, ready] of [
    ['worker', /Worker polling task queue/],
    ['receiver', /Webhook receiver listening on/],
    ['intake', /listening on/],
    ['codec-server', /Codec server on/],
  ] as const) {
    it(`starts the ${role} and stops it on SIGTERM`, async () => {
      const running = await runRole([bin, role], { env: roleEnv(), cwd: dir, ready });
      assert.equal(await running.stop(), 0, running.output());
    });
  }

  it('never bundles the workflow code at start: a worker without the built bundle refuses, naming npm run build', async () => {
    const bundle = path.join(dir, 'dist/workflow-bundle.js');
    await fs.rename(bundle, `${bundle}.moved`);
    try {
      await assert.rejects(run(['worker', '--in-process'], roleEnv()), (err: { stderr: string }) => {
        assert.match(err.stderr, /workflow bundle .*dist\/workflow-bundle\.js is missing: run npm run build/);
        return true;
      });
    } finally {
      await fs.rename(`${bundle}.moved`, bundle);
    }
  });
});
