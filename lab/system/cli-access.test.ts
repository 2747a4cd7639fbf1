import assert from 'node:assert/strict';
import pg from 'pg';
import { verifyCodecToken } from '../../src/access/codec-tokens.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { testDatabaseUrl } from '../../testing/database.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { temporalEnv, testTemporal } from '../../testing/temporal.js';
import { startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { runCli } from '../../testing/run-cli.js';

/**
 * `eligibility clients` and `eligibility audit`, as an administrator runs them against the project's database; the
 * trail records what the CLI itself shows of a patient. The run's database, in its own `public` schema.
 */
describe('eligibility clients and audit', function () {
  this.timeout(90_000);
  let h: WorkflowHarness;
  let env: Record<string, string>;
  const cli = (...args: string[]) => runCli(args, env);
  const cliWithInput = (input: string, ...args: string[]) => runCli(args, env, input);
  /** The trail's entries a filter of `audit list` finds, as `--jsonl` exports them. */
  const trail = async (...filter: string[]) =>
    (await cli('audit', 'list', ...filter, '--jsonl')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { actor: string; action: string; tenant: string | null });

  before(async () => {
    h = await startWorkflowHarness();
    env = {
      ...temporalEnv(h.taskQueue),
      DATABASE_URL: testDatabaseUrl(),
    };
  });
  after(() => h?.stop());

  it('makes a client and shows its key once, lists it without it, revokes it; each change in the trail', async () => {
    const made = await cli(
      '--as',
      'ana',
      'clients',
      'create',
      '--name',
      'Clinic 9 PMS',
      '--tenant',
      'clinic-9',
      '--scopes',
      'verifications:read',
    );
    assert.equal(made.code, 0, made.stderr);
    const key = /eik_[0-9a-f]{12}_\S+/.exec(made.stdout)?.[0];
    const id = key?.split('_')[1];
    assert.ok(key && id);
    const listed = await cli('clients', 'list', '--json');
    const client = (JSON.parse(listed.stdout) as { id: string; tenant: string }[]).find((c) => c.id === id);
    assert.equal(client?.tenant, 'clinic-9');
    assert.doesNotMatch(listed.stdout, /eik_/, 'no key in the listing');
    assert.equal((await cli('--as', 'ana', 'clients', 'revoke', id)).code, 0);
    const bad = await cli('clients', 'create', '--name', 'x', '--tenant', 'clinic-9', '--scopes', 'verifications:rite');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--scopes: unknown scope verifications:rite/);
    const entries = (await trail('--actor', 'cli:ana')).slice(-2);
    assert.deepEqual(
      entries.map((e) => [e.action, e.tenant]),
      [
        [`client.create:${id}`, 'clinic-9'],
        [`client.revoke:${id}`, 'clinic-9'],
      ],
    );
  });

  it('records a status the CLI shows, as the person it acts for; audit verify finds an edited entry', async () => {
    const { workflowId } = await startVerification(testTemporal().client, v2Intake(), {
      taskQueue: h.taskQueue,
      timing: { ...FAST, graceSeconds: 30 },
    });
    const shown = await cli('--as', 'bo', 'status', workflowId);
    assert.equal(shown.code, 0, shown.stderr);
    const entries = await trail('--workflow', workflowId);
    assert.deepEqual(
      entries.map((e) => [e.actor, e.action]),
      [['cli:bo', 'verification.read']],
    );
    assert.equal((await cli('audit', 'verify')).code, 0);
    // Someone with the database's password edits an entry: verify names it.
    const db = new pg.Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      const { rows } = await db.query<{ seq: string }>(
        "update audit_entries set actor = 'nobody' where workflow_id = $1 returning seq",
        [workflowId],
      );
      const broken = await cli('audit', 'verify');
      assert.equal(broken.code, 1);
      assert.match(broken.stderr, new RegExp(`broken at entry ${rows[0]!.seq}: its content does not match its hash`));
      // Put back, so that the run's later checks of this trail hold.
      await db.query("update audit_entries set actor = 'cli:bo' where workflow_id = $1", [workflowId]);
    } finally {
      await db.end();
    }
    assert.equal((await cli('audit', 'verify')).code, 0);
  });

  it('adds an operator with a password from stdin, changes their role, disables them; each change in the trail', async () => {
    const name = `op-${Date.now()}`;
    const short = await cliWithInput(
      'short',
      'operators',
      'create',
      name,
      '--role',
      'operator',
      '--tenants',
      'clinic-1',
    );
    assert.equal(short.code, 1);
    assert.match(short.stderr, /at least 12 characters/);
    const made = await cliWithInput(
      'a long passphrase',
      '--as',
      'ana',
      'operators',
      'create',
      name,
      '--role',
      'operator',
      '--tenants',
      'clinic-1,clinic-2',
    );
    assert.equal(made.code, 0, made.stderr);
    assert.equal((await cli('--as', 'ana', 'operators', 'set', name, '--role', 'viewer')).code, 0);
    const listed = (
      JSON.parse((await cli('operators', 'list', '--json')).stdout) as {
        name: string;
        role: string;
        tenants: string[];
      }[]
    ).find((o) => o.name === name);
    assert.deepEqual([listed?.role, listed?.tenants], ['viewer', ['clinic-1', 'clinic-2']]);
    assert.equal((await cli('--as', 'ana', 'operators', 'disable', name)).code, 0);
    // One entry per tenant of the operator, so that each tenant's administrators find it.
    const entries = (await trail('--actor', 'cli:ana')).filter((e) => e.action.endsWith(`:${name}`));
    assert.deepEqual(
      entries.map((e) => [e.action, e.tenant]),
      ['create', 'set', 'disable'].flatMap((act) => [
        [`operator.${act}:${name}`, 'clinic-1'],
        [`operator.${act}:${name}`, 'clinic-2'],
      ]),
    );
  });

  it("mints an operator's codec pass the codec server accepts, none for a viewer; each pass in the trail", async () => {
    const secret = 'a-pass-secret-of-at-least-32-characters';
    const name = `coder-${Date.now()}`;
    const made = await cliWithInput(
      'a long passphrase',
      'operators',
      'create',
      name,
      '--role',
      'operator',
      '--all-tenants',
    );
    assert.equal(made.code, 0, made.stderr);
    const withSecret = { ...env, CODEC_TOKEN_SECRET: secret };
    const minted = await runCli(['--as', 'ana', 'codec-pass', name, '--hours', '1'], withSecret);
    assert.equal(minted.code, 0, minted.stderr);
    const pass = /--codec-auth "Bearer (\S+)"/.exec(minted.stdout)?.[1];
    assert.ok(pass, minted.stdout);
    assert.match(minted.stdout, new RegExp(`Temporal UI codec endpoint: http://127\\.0\\.0\\.1:8888/p/${pass}`));
    assert.deepEqual(await verifyCodecToken(secret, pass), {
      name,
      role: 'operator',
      tenants: null,
      source: 'directory',
    });
    assert.deepEqual((await trail('--actor', 'cli:ana')).at(-1)?.action, `codec.pass:${name}`);

    assert.equal((await cli('operators', 'set', name, '--role', 'viewer')).code, 0);
    const refused = await runCli(['codec-pass', name], withSecret);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /viewers decode nothing/);
    const noSecret = await cli('codec-pass', name);
    assert.match(noSecret.stderr, /CODEC_TOKEN_SECRET is not set/);
  });
});
