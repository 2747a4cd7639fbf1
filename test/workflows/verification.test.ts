import assert from 'node:assert/strict';
import { WorkflowFailedError, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { SandboxDiscoveryRequest } from '../../src/contract/index.js';
import { SEED_PATIENTS } from '../../sandbox/seed.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import {
  awaitSettledUpdate,
  cancelSignal,
  runAwaitingInputSignal,
  statusQuery,
  supplyRunInputUpdate,
} from '../../workflows/verification/verification.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import { discoveryWorkflowId } from '../../workflows/shared/ids.js';
import type { Timing } from '../../workflows/shared/timing.js';
import type { VerificationResult, VerificationWorkflowInput } from '../../workflows/verification/verification.js';
import { FAST, callerId, v2Intake } from '../../testing/fixtures.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import {
  eventually,
  serviceCalls,
  startWorkflowHarness,
  type WorkflowHarness,
} from '../../testing/workflow-harness.js';
import { DISCOVERY_PATIENT } from '../../testing/sandbox.js';
import { timelineOf } from '../../apps/console/reads/timeline.js';
import { and, withWorkflowId } from '../../src/temporal/visibility-query.js';
import { atStage, howItEnded } from '../../src/temporal/workflow-ending.js';
import { VerificationStage } from '../../workflows/shared/search-attributes.js';
import { discoveryUpdatedSignal, discoveryWaitersQuery } from '../../workflows/discovery/discovery.js';

describe('verificationWorkflow', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;

  before(async () => {
    h = await startWorkflowHarness();
  });
  after(async () => h?.stop());
  beforeEach(async () => h.sandbox.reset());

  const client = () => testTemporal().client;
  const handle = (workflowId: string): WorkflowHandle<typeof verificationWorkflow> =>
    client().workflow.getHandle(workflowId);

  async function start(request: unknown, timing: Partial<Timing> = FAST) {
    const { workflowId } = await startVerification(client(), request, { taskQueue: h.taskQueue, timing });
    return handle(workflowId);
  }

  /** Starts the workflow without the starter's validation, as Temporal UI's Start Workflow button could. */
  function startRaw(input: { request: unknown; timing?: Partial<Timing> }) {
    return client().workflow.start<typeof verificationWorkflow>('verificationWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: `verification-raw-${callerId('raw')}`,
      args: [input as VerificationWorkflowInput],
    });
  }

  const createDiscovery = (body: Partial<SandboxDiscoveryRequest>) =>
    h.sandbox.createDiscovery({ ...DISCOVERY_PATIENT, ...body });

  async function failureOf(wf: WorkflowHandle): Promise<ApplicationFailure> {
    const err = await wf.result().then(
      () => assert.fail('the workflow should have failed'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof WorkflowFailedError, `expected WorkflowFailedError, got ${String(err)}`);
    assert.ok(err.cause instanceof ApplicationFailure, 'the cause is an ApplicationFailure');
    return err.cause;
  }

  it('creates a v2 verification and completes after the grace period', async () => {
    const wf = await start(v2Intake());
    const result = await wf.result();
    assert.equal(result.outcome, 'completed');
    assert.match(result.verificationId ?? '', /^[0-9a-f-]{36}$/);
    const stats = await h.sandbox.stats();
    assert.equal(stats.verificationsCreated, 1);
    assert.equal((await wf.query(statusQuery)).stage, 'completed');
    await recordHistory('v2-happy-path', wf);
  });

  it('indexes its outcome when it completes from created, and every reading says completed', async () => {
    const wf = await start(v2Intake());
    await wf.result();
    const events = (await wf.fetchHistory()).events ?? [];
    const upserts = events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes).length;
    assert.equal(upserts, 2, 'two upserts: created, with its verification id, and completed');
    const described = await wf.describe();
    assert.equal(described.typedSearchAttributes.get(VerificationStage), 'completed');
    assert.equal(
      howItEnded(described.status.name, described.typedSearchAttributes.get(VerificationStage)),
      'completed',
    );
    const timeline = (await timelineOf(events)).map((e) => e.text);
    assert.deepEqual(timeline.slice(-2), ['Completed', 'finished']);
    const query = and(withWorkflowId(wf.workflowId), atStage('completed'));
    const counted = async () => ((await client().workflow.count(query)).count === 1 ? true : undefined);
    await eventually(counted, 10_000, 'visibility to count it completed');
    const asCreated = and(withWorkflowId(wf.workflowId), atStage('created'));
    assert.equal((await client().workflow.count(asCreated)).count, 0);
  });

  it('answers the awaitSettled update once the verification is created, with its status', async () => {
    const wf = await start(v2Intake());
    const status = await wf.executeUpdate(awaitSettledUpdate);
    assert.equal(status.stage, 'created');
    assert.match(status.verificationId ?? '', /^[0-9a-f-]{36}$/);
    assert.equal((await wf.result()).outcome, 'completed');
    // Asked again once closed: a closed workflow takes no update, so callers read its status (src/temporal/await-settled.ts).
    await assert.rejects(wf.executeUpdate(awaitSettledUpdate));
    await recordHistory('awaited-settled', wf);
  });

  it('creates a v1 verification when the request says so', async () => {
    const patient = SEED_PATIENTS[0]!;
    const wf = await start({
      version: 'v1',
      id: callerId('v1'),
      patientId: patient.patientId,
      memberId: 'M7654321',
      payerId: '60054',
      npi: '1234567893',
    });
    const result = await wf.result();
    assert.equal(result.outcome, 'completed');
    assert.ok(result.verificationId);
    assert.equal((await h.sandbox.stats()).verificationsCreated, 1);
    await recordHistory('v1-path', wf);
  });

  it('fails an invalid request non-retryably, naming the field, with no service call', async () => {
    const request = v2Intake({ patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '13/01/1990' } });
    const wf = await startRaw({ request });
    const failure = await failureOf(wf);
    assert.equal(failure.type, 'InvalidRequest');
    assert.equal(failure.nonRetryable, true);
    assert.equal((failure.details?.[0] as { param: string }).param, 'patient.dateOfBirth');
    assert.match(failure.message, /patient\.dateOfBirth/);
    assert.equal(serviceCalls(await h.sandbox.stats()), 0);
    await recordHistory('invalid-request', wf);
  });

  it('runs a request started without the edges (no version, as typed in Temporal UI) once its structure holds', async () => {
    const wf = await startRaw({ request: v2Intake(), timing: FAST });
    const result = await wf.result();
    assert.equal(result.outcome, 'completed');
    assert.equal((await h.sandbox.stats()).verificationsCreated, 1);
  });

  it('leaves patterns to the contract: a field the guard lets through is refused by the client, not sent', async () => {
    const wf = await startRaw({ request: v2Intake({ specialtyCode: 'NOT-A-CODE' }), timing: FAST });
    const failure = await failureOf(wf);
    assert.equal(failure.type, 'InvalidRequest');
    assert.equal((failure.details?.[0] as { param: string }).param, 'specialtyCode');
    assert.equal((await h.sandbox.stats()).calls['POST /v2/verifications'], undefined, 'nothing was sent');
  });

  it('fails an unknown payer naming payerId', async () => {
    const wf = await start(v2Intake({ payerId: 'NO-SUCH-PAYER' }));
    const failure = await failureOf(wf);
    assert.equal(failure.type, 'InvalidRequest');
    assert.equal((failure.details?.[0] as { param: string }).param, 'payerId');
    assert.equal((await h.sandbox.stats()).verificationsCreated, 0);
    await recordHistory('unknown-payer', wf);
  });

  it("is handed the discovery by discovery-<id>, woken by the discovery's update instead of an hourly poll", async () => {
    const discovery = await createDiscovery({ delayMs: -1 });
    const request = v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId });
    delete (request.patient as { memberId?: string }).memberId;
    const wf = await start(request, { ...FAST, pollInitialSeconds: 3600, pollMaxSeconds: 3600 });
    const owner = client().workflow.getHandle(discoveryWorkflowId(discovery.discoveryId));
    await eventually(
      async () => ((await owner.query(discoveryWaitersQuery).catch(() => [])).length > 0 ? true : undefined),
      10_000,
      'the verification registered with discovery-<id>',
    );
    assert.deepEqual(await owner.query(discoveryWaitersQuery), [wf.workflowId]);
    assert.equal((await wf.query(statusQuery)).stage, 'awaiting-discovery');
    await h.sandbox.completeDiscovery(discovery.discoveryId);
    const signalled = Date.now();
    // What the webhook receiver does for the discovery's update: one signal to discovery-<id>.
    await owner.signal(discoveryUpdatedSignal, { discoveryId: discovery.discoveryId });
    const result = await wf.result();
    const elapsed = Date.now() - signalled;
    assert.equal(result.outcome, 'completed');
    assert.ok(elapsed < 2000, `completed ${elapsed} ms after the signal`);
    assert.equal(result.discovery?.successful, true);
    assert.ok(result.discovery?.memberId, 'the discovered member id was used');
    await recordHistory('discovery-by-signal', wf);
    await recordHistory('discovery-owner-by-signal', owner);
  });

  it('finds a completed discovery by polling alone when no webhook arrives', async () => {
    const discovery = await createDiscovery({ delayMs: 700 });
    const wf = await start(v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId }));
    const result = await wf.result();
    assert.equal(result.outcome, 'completed');
    assert.equal(result.discovery?.payerId, '60054');
    const polls = (await h.sandbox.stats()).calls['GET /v1/discovery/:discoveryId']?.['200'] ?? 0;
    assert.ok(polls >= 2, `it polled (${polls} fetches)`);
    await recordHistory('discovery-by-polling', wf);
  });

  it('ends as no-coverage when the discovery finds nothing', async () => {
    const discovery = await createDiscovery({ lastName: 'Nocoverage', delayMs: 0 });
    const wf = await start(v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId }));
    const result = await wf.result();
    assert.equal(result.outcome, 'no-coverage');
    assert.equal(result.discovery?.successful, false);
    assert.equal((await h.sandbox.stats()).verificationsCreated, 0);
    await recordHistory('no-coverage', wf);
  });

  it('ends as timed-out when the discovery deadline passes', async () => {
    const discovery = await createDiscovery({ delayMs: -1 });
    const wf = await start(v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId }), {
      ...FAST,
      discoveryDeadlineSeconds: 1,
    });
    const result = await wf.result();
    assert.equal(result.outcome, 'timed-out');
    assert.equal(result.discovery?.status, 'pending');
    await recordHistory('discovery-timed-out', wf);
  });

  describe('a run awaiting input', () => {
    async function startWithRun(): Promise<{ wf: WorkflowHandle<typeof verificationWorkflow>; flowRunId: string }> {
      const wf = await start(v2Intake({ specialtyCode: 'ABA' }), { ...FAST, graceSeconds: 30 });
      const verificationId = await eventually(async () => (await wf.query(statusQuery)).verificationId);
      const runs = await eventually(async () => {
        const list = await h.sandbox.runs(verificationId);
        return list.length > 0 ? list : undefined;
      });
      const flowRunId = runs[0]!.flowRunId;
      await wf.signal(runAwaitingInputSignal, { flowRunId });
      return { wf, flowRunId };
    }

    async function updateError(promise: Promise<unknown>): Promise<ApplicationFailure> {
      const err = await promise.then(
        () => assert.fail('the update should have been rejected'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof WorkflowUpdateFailedError, `expected WorkflowUpdateFailedError, got ${String(err)}`);
      assert.ok(err.cause instanceof ApplicationFailure);
      return err.cause;
    }

    it('shows awaiting-input, rejects bad input in the validator and sends good input', async () => {
      const { wf, flowRunId } = await startWithRun();
      const status = await eventually(async () => {
        const s = await wf.query(statusQuery);
        return s.stage === 'awaiting-input' ? s : undefined;
      });
      assert.deepEqual(status.pendingRuns, [flowRunId]);
      const visible = await eventually(
        async () => {
          const query = `WorkflowId = '${wf.workflowId}' AND VerificationStage = 'awaiting-input'`;
          const { count } = await client().workflow.count(query);
          return count === 1 ? count : undefined;
        },
        15_000,
        'the visibility query to find the workflow',
      );
      assert.equal(visible, 1);

      const unknown = await updateError(
        wf.executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId: 'no-such-run', input: { a: 1 } }] }),
      );
      assert.equal((unknown.details?.[0] as { param: string }).param, 'flowRunId');
      const notObject = await updateError(
        wf.executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId, input: 'yes' as never }] }),
      );
      assert.equal((notObject.details?.[0] as { param: string }).param, 'input');
      const history = await wf.fetchHistory();
      const accepted = history.events?.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes) ?? [];
      assert.equal(accepted.length, 0, 'rejected updates leave nothing in history');
      assert.equal((await h.sandbox.stats()).calls['PUT /v1/runs/:flowRunId'], undefined, 'no call was made');

      // The service rejects `{}`: its 400 naming `input` reaches the caller, and the run stays pending.
      const rejected = await updateError(wf.executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId, input: {} }] }));
      assert.equal(rejected.type, 'InvalidRequest');
      assert.equal((rejected.details?.[0] as { param: string }).param, 'input');
      const after = await wf.query(statusQuery);
      assert.equal(after.stage, 'awaiting-input');
      assert.equal(after.lastError?.param, 'input');

      const answer = await wf.executeUpdate(supplyRunInputUpdate, {
        args: [{ flowRunId, input: { authorizationNumber: 'A-100' } }],
      });
      assert.deepEqual(answer, { flowRunId, status: 'CREATED' });
      const result: VerificationResult = await wf.result();
      assert.equal(result.outcome, 'completed');
      assert.deepEqual(result.runs, [{ flowRunId, state: 'answered', serviceStatus: 'CREATED' }]);
      await recordHistory('run-awaiting-input', wf);
    });
  });

  it('ends as cancelled on a cancel signal', async () => {
    const discovery = await createDiscovery({ delayMs: -1 });
    const wf = await start(v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId }), {
      ...FAST,
      pollInitialSeconds: 3600,
    });
    await eventually(async () => ((await wf.query(statusQuery)).stage === 'awaiting-discovery' ? true : undefined));
    await wf.signal(cancelSignal, { reason: 'test' });
    assert.equal((await wf.result()).outcome, 'cancelled');
    await recordHistory('cancelled', wf);
  });

  it('creates the verification exactly once when the response to the create call is lost', async () => {
    await h.sandbox.setFaults({ dropResponses: 1 });
    const wf = await start(v2Intake());
    const result = await wf.result();
    assert.equal(result.outcome, 'completed');
    const stats = await h.sandbox.stats();
    assert.equal(stats.verificationsCreated, 1, 'one verification');
    assert.ok(stats.idempotentReplays >= 1, `idempotent replays: ${stats.idempotentReplays}`);
    await recordHistory('lost-create-response', wf);
  });

  it('does not start a second workflow for a caller id it has seen', async () => {
    const request = v2Intake({ id: callerId('dup') });
    const first = await startVerification(client(), request, { taskQueue: h.taskQueue, timing: FAST });
    const again = await startVerification(client(), request, { taskQueue: h.taskQueue, timing: FAST });
    assert.deepEqual(again, { workflowId: first.workflowId, started: false });
    await handle(first.workflowId).result();
    const closed = await startVerification(client(), request, { taskQueue: h.taskQueue, timing: FAST });
    assert.deepEqual(closed, { workflowId: first.workflowId, started: false });
    assert.equal((await h.sandbox.stats()).verificationsCreated, 1);
  });
});
