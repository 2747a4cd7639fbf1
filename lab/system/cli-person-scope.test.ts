import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startVerification } from '../../src/temporal/start-verification.js';
import { batchIdFor, submitRequests, waitForBatch } from '../../testing/batches.js';
import { testDatabaseUrl } from '../../testing/database.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { DISCOVERY_PATIENT } from '../../testing/sandbox.js';
import { temporalEnv, testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { runCli, type CliRun } from '../../testing/run-cli.js';

/**
 * The CLI acting for a person of the operator directory (`--as`, docs/operating/cli.md): within their tenants and role,
 * as the console. Against the run's dev server, a worker and the run's database (its `public` schema, as the CLI opens
 * it).
 */
describe('eligibility --as an operator: tenants and role', function () {
  this.timeout(120_000);
  let h: WorkflowHarness;
  let env: Record<string, string>;
  const cli = (...args: string[]) => runCli(args, env);
  // Tenants of this run only, so that lists can be checked whole.
  const suffix = randomUUID().slice(0, 8);
  const A = `clinic-a-${suffix}`;
  const B = `clinic-b-${suffix}`;
  const opA = `ana-${suffix}`;
  const viewerB = `vic-${suffix}`;
  const gone = `gil-${suffix}`;
  let a: string;
  let b: string;
  let aBatch: string;
  let bBatch: string;
  const cleanup: (() => Promise<unknown>)[] = [];

  /** A verification of `tenant` that stays open (a long grace), terminated when the suite ends. */
  async function verificationOf(tenant: string) {
    const { workflowId } = await startVerification(testTemporal().client, v2Intake(), {
      taskQueue: h.taskQueue,
      tenant,
      timing: { ...FAST, graceSeconds: 600 },
    });
    cleanup.push(() => testTemporal().client.workflow.getHandle(workflowId).terminate('test over'));
    return workflowId;
  }

  async function batchOf(tenant: string, request: unknown = v2Intake()) {
    const batchId = batchIdFor(`cli-${tenant}`);
    await submitRequests(testTemporal().client, h.taskQueue, batchId, [request], { tenant });
    return batchId;
  }

  /** The trail's entries about a workflow or a batch, as `audit list --jsonl` exports them. */
  async function trail(...filter: string[]) {
    const out = (await cli('audit', 'list', ...filter, '--jsonl')).stdout.trim();
    return out
      ? out
          .split('\n')
          .map((line) => JSON.parse(line) as { actor: string; action: string; tenant: string | null; outcome: string })
      : [];
  }

  /** A run's exit code and stderr with `id` replaced: what it tells of the object, whatever its name. */
  const told = (run: CliRun, id: string) => `${run.code} ${run.stderr.replaceAll(id, '<id>')}`;

  const operator = async (name: string, role: string, tenants: string) => {
    const made = await runCli(
      ['operators', 'create', name, '--role', role, '--tenants', tenants],
      env,
      'a long passphrase',
    );
    assert.equal(made.code, 0, made.stderr);
  };

  before(async () => {
    h = await startWorkflowHarness();
    env = {
      ...temporalEnv(h.taskQueue),
      DATABASE_URL: testDatabaseUrl(),
    };
    await operator(opA, 'operator', A);
    await operator(viewerB, 'viewer', B);
    await operator(gone, 'operator', A);
    assert.equal((await cli('operators', 'disable', gone)).code, 0);
    [a, b, aBatch, bBatch] = await Promise.all([verificationOf(A), verificationOf(B), batchOf(A), batchOf(B)]);
    await Promise.all([aBatch, bBatch].map((id) => waitForBatch(testTemporal().client, id)));
  });
  after(async () => {
    await Promise.all(cleanup.map((fn) => fn().catch(() => undefined)));
    await h?.stop();
  });

  it("status: another tenant's verification is told exactly as a missing one; its own is shown, audited with its tenant", async () => {
    const missing = `verification-${randomUUID()}`;
    const theirs = await cli('--as', opA, 'status', b);
    const nobodys = await cli('--as', opA, 'status', missing);
    assert.equal(theirs.code, 1);
    assert.equal(theirs.stdout, '');
    assert.equal(told(theirs, b), told(nobodys, missing));
    assert.match(theirs.stderr, /^eligibility: no workflow /);

    const own = await cli('--as', opA, 'status', a);
    assert.equal(own.code, 0, own.stderr);
    assert.match(own.stdout, new RegExp(a));
    assert.deepEqual(
      (await trail('--workflow', a)).map((e) => [e.actor, e.action, e.tenant]),
      [[`cli:${opA}`, 'verification.read', A]],
    );
    // Nothing of B was shown; the refusal is on record with B's tenant (decision 84).
    assert.deepEqual(
      (await trail('--workflow', b)).map((e) => [e.actor, e.action, e.outcome, e.tenant]),
      [[`cli:${opA}`, 'verification.read', 'denied', B]],
    );
  });

  it("list and batches list: only the operator's tenants, in the visibility query", async () => {
    await eventually(async () => {
      const listed = await cli('--as', opA, 'list', '--limit', '500');
      return listed.stdout.includes(a) || undefined;
    });
    const listed = await cli('--as', opA, 'list', '--limit', '500');
    assert.equal(listed.code, 0, listed.stderr);
    assert.doesNotMatch(listed.stdout, new RegExp(b));

    const batches = await cli('--as', opA, 'batches', 'list', '--limit', '500');
    assert.equal(batches.code, 0, batches.stderr);
    assert.match(batches.stdout, new RegExp(aBatch));
    assert.doesNotMatch(batches.stdout, new RegExp(bBatch));
    // Naming another tenant is refused, as the intake API refuses `GET /batches?tenant=<another>`.
    const named = await cli('--as', opA, 'batches', 'list', '--tenant', B);
    assert.deepEqual([named.code, named.stdout.trim()], [1, '']);
    assert.match(named.stderr, new RegExp(`--tenant ${B} is not one of the tenants`));
  });

  it("batches status, items and results of another tenant's batch: told exactly as a missing one", async () => {
    const missing = batchIdFor('missing');
    for (const command of ['status', 'items', 'results']) {
      const theirs = await cli('--as', opA, 'batches', command, bBatch);
      const nobodys = await cli('--as', opA, 'batches', command, missing);
      assert.equal(theirs.code, 1, command);
      assert.equal(told(theirs, bBatch), told(nobodys, missing), command);
    }
    const results = await cli('--as', opA, 'batches', 'results', aBatch);
    assert.equal(results.code, 0, results.stderr);
    assert.deepEqual(
      (await trail('--batch', aBatch)).map((e) => [e.actor, e.action, e.tenant]),
      [[`cli:${opA}`, 'batch.results', A]],
    );
    // Nothing of B's batch was shown; each refusal is on record with B's tenant.
    assert.deepEqual(
      (await trail('--batch', bBatch)).map((e) => [e.action, e.outcome, e.tenant]),
      [
        ['batch.read', 'denied', B],
        ['batch.read', 'denied', B],
        ['batch.results', 'denied', B],
      ],
    );
  });

  it("cancel of another tenant's verification does nothing and says not found", async () => {
    const missing = `verification-${randomUUID()}`;
    const theirs = await cli('--as', opA, 'cancel', b);
    const nobodys = await cli('--as', opA, 'cancel', missing);
    assert.equal(theirs.code, 1);
    assert.equal(told(theirs, b), told(nobodys, missing));
    const described = await testTemporal().client.workflow.getHandle(b).describe();
    assert.equal(described.status.name, 'RUNNING');
    // Resubmitting or cancelling another tenant's batch alike.
    const batch = await cli('--as', opA, 'batches', 'cancel', bBatch);
    assert.equal(told(batch, bBatch), `1 eligibility: no batch <id>\n`);
  });

  it("a viewer's cancel and resubmit are refused naming the role; nothing is sent; the refusal is audited", async () => {
    const refused = await cli('--as', viewerB, 'cancel', b);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^eligibility: your role \(viewer, as vic-\S+\) cannot cancel a verification;/);
    const described = await testTemporal().client.workflow.getHandle(b).describe();
    assert.equal(described.status.name, 'RUNNING');
    const resubmit = await cli('--as', viewerB, 'batches', 'resubmit', bBatch);
    assert.match(resubmit.stderr, /your role \(viewer, as vic-\S+\) cannot resubmit a batch/);
    assert.deepEqual(
      (await trail('--workflow', b)).filter((e) => e.actor === `cli:${viewerB}`).map((e) => [e.action, e.outcome]),
      [['verification.cancel', 'denied']],
    );
    // The viewer reads their tenant's verification.
    assert.equal((await cli('--as', viewerB, 'status', b)).code, 0);
  });

  it("masks the member ids of a viewer's batch results, not an administrator's; both in the trail", async () => {
    const discovery = await h.sandbox.createDiscovery({ ...DISCOVERY_PATIENT, delayMs: 0 });
    const batchId = await batchOf(B, v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId }));
    await waitForBatch(testTemporal().client, batchId);
    const full = await cli('batches', 'results', batchId);
    assert.equal(full.code, 0, full.stderr);
    const memberId = /\bW\d{9}\b/.exec(full.stdout)?.[0];
    assert.ok(memberId, full.stdout);
    const masked = await cli('--as', viewerB, 'batches', 'results', batchId, '--format', 'jsonl');
    assert.equal(masked.code, 0, masked.stderr);
    assert.ok(!masked.stdout.includes(memberId), masked.stdout);
    assert.ok(masked.stdout.includes(`••••${memberId.slice(-4)}`), masked.stdout);
    const entries = await trail('--batch', batchId);
    assert.deepEqual(
      entries.map((e) => [e.actor.startsWith(`cli:${viewerB}`), e.action, e.tenant]),
      [
        [false, 'batch.results', B],
        [true, 'batch.results', B],
      ],
    );
  });

  it('a disabled operator is refused; a name the directory does not list, or none, acts on every tenant as before', async () => {
    const disabled = await cli('--as', gone, 'status', a);
    assert.deepEqual([disabled.code, disabled.stderr], [1, `eligibility: no active operator ${gone}\n`]);
    const stranger = await cli('--as', `nobody-${suffix}`, 'status', b);
    assert.equal(stranger.code, 0, stranger.stderr);
    const login = await cli('status', a);
    assert.equal(login.code, 0, login.stderr);
    const all = await cli('batches', 'list', '--limit', '500');
    assert.match(all.stdout, new RegExp(aBatch));
    assert.match(all.stdout, new RegExp(bBatch));
    assert.match((await cli('batches', 'list', '--tenant', B)).stdout, new RegExp(bBatch));
    await eventually(async () => {
      const listed = (await cli('list', '--limit', '500')).stdout;
      return (listed.includes(a) && listed.includes(b)) || undefined;
    });
  });
});
