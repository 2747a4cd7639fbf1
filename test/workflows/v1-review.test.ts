import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { startVerification } from '../../src/temporal/start-verification.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import { resolveReviewUpdate, reviewDecisionSignal, statusQuery } from '../../workflows/verification/verification.js';
import type { Timing } from '../../workflows/shared/timing.js';
import type { VerificationStatus } from '../../workflows/verification/verification.js';
import { FAST, v1Intake } from '../../testing/fixtures.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

const V1_CREATE = 'POST /v1/verifications';

describe('verificationWorkflow: v1 creation is at most once', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;

  before(async () => {
    h = await startWorkflowHarness();
  });
  after(async () => h?.stop());
  beforeEach(async () => h.sandbox.reset());

  const client = () => testTemporal().client;

  /** Starts a v1 verification whose creation response the sandbox drops, and waits for it to need review. */
  async function startAmbiguous(timing: Partial<Timing> = FAST) {
    await h.sandbox.setFaults({ dropResponses: 1 });
    const { workflowId } = await startVerification(client(), v1Intake(), { taskQueue: h.taskQueue, timing });
    const wf: WorkflowHandle<typeof verificationWorkflow> = client().workflow.getHandle(workflowId);
    const status = await eventually(
      async () => {
        const s = await wf.query(statusQuery);
        return s.stage === 'needs-review' ? s : undefined;
      },
      15_000,
      'stage needs-review',
    );
    return { wf, status };
  }

  const v1Creations = async () =>
    Object.values((await h.sandbox.stats()).calls[V1_CREATE] ?? {}).reduce((a, b) => a + b, 0);

  async function updateFailure(promise: Promise<unknown>): Promise<ApplicationFailure> {
    const err = await promise.then(
      () => assert.fail('the update should have been refused'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof WorkflowUpdateFailedError, `expected WorkflowUpdateFailedError, got ${String(err)}`);
    assert.ok(err.cause instanceof ApplicationFailure);
    return err.cause;
  }

  function assertNeedsReview(status: VerificationStatus) {
    assert.equal(status.lastError?.type, 'AmbiguousOutcome');
    assert.match(status.lastError?.message ?? '', /outcome unknown/);
    assert.ok(status.review, 'the status says why and until when');
    assert.equal(status.review.reason, status.lastError?.message);
    assert.ok(Date.parse(status.review.decideBy) > Date.parse(status.review.since));
    assert.equal(status.verificationId, undefined);
  }

  it('stops at needs-review after a lost response, with one verification created; retry creates again', async () => {
    const { wf, status } = await startAmbiguous();
    assertNeedsReview(status);
    const stats = await h.sandbox.stats();
    assert.equal(stats.verificationsCreated, 1, 'the lost call created one');
    assert.equal(stats.responsesDropped, 1);
    assert.equal(await v1Creations(), 1, 'not retried automatically');
    const visible = await eventually(
      async () => {
        const { count } = await client().workflow.count(
          `WorkflowId = '${wf.workflowId}' AND VerificationStage = 'needs-review'`,
        );
        return count === 1 ? count : undefined;
      },
      15_000,
      'the search attribute',
    );
    assert.equal(visible, 1);

    assert.deepEqual(await wf.executeUpdate(resolveReviewUpdate, { args: [{ action: 'retry' }] }), {
      accepted: 'retry',
    });
    const result = await wf.result();
    assert.equal(result.outcome, 'completed');
    assert.match(result.verificationId ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(result.lastError, undefined, 'the retry settled it');
    assert.equal((await h.sandbox.stats()).verificationsCreated, 2, 'the person accepted the risk of a duplicate');
    await recordHistory('v1-review-retry', wf);
  });

  it('records the verification id a person found, with no call; refuses a malformed id or action first', async () => {
    const { wf } = await startAmbiguous();
    const malformed = await updateFailure(
      wf.executeUpdate(resolveReviewUpdate, { args: [{ action: 'record', verificationId: 'not-a-uuid' }] }),
    );
    assert.equal((malformed.details?.[0] as { param: string }).param, 'verificationId');
    const unknown = await updateFailure(wf.executeUpdate(resolveReviewUpdate, { args: [{ action: 'redo' } as never] }));
    assert.equal((unknown.details?.[0] as { param: string }).param, 'action');
    const history = await wf.fetchHistory();
    const accepted = history.events?.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes) ?? [];
    assert.equal(accepted.length, 0, 'refused decisions leave nothing in history');

    const found = randomUUID();
    await wf.executeUpdate(resolveReviewUpdate, { args: [{ action: 'record', verificationId: found }] });
    const result = await wf.result();
    assert.equal(result.outcome, 'completed');
    assert.equal(result.verificationId, found);
    assert.equal(await v1Creations(), 1, 'no second call');
    assert.equal((await h.sandbox.stats()).verificationsCreated, 1);
    await recordHistory('v1-review-record', wf);
  });

  it('abandons on the signal twin (Temporal UI), closing as abandoned and saying a verification may exist', async () => {
    const { wf } = await startAmbiguous();
    await wf.signal(reviewDecisionSignal, { action: 'abandon' });
    const result = await wf.result();
    assert.equal(result.outcome, 'abandoned');
    assert.equal(result.verificationId, undefined);
    assert.equal(result.lastError?.type, 'AmbiguousOutcome');
    assert.equal(await v1Creations(), 1);
    assert.equal((await wf.query(statusQuery)).stage, 'abandoned');
    await recordHistory('v1-review-abandon', wf);
  });

  it('shows a refused signal decision in the status and keeps waiting', async () => {
    const { wf } = await startAmbiguous();
    await wf.signal(reviewDecisionSignal, { action: 'record', verificationId: 'nope' });
    const status = await eventually(async () => {
      const s = await wf.query(statusQuery);
      return s.lastError?.param === 'verificationId' ? s : undefined;
    });
    assert.equal(status.stage, 'needs-review');
    await wf.signal(reviewDecisionSignal, { action: 'abandon' });
    assert.equal((await wf.result()).outcome, 'abandoned');
  });

  it('ends as timed-out when nobody decides by the review deadline', async () => {
    const { wf } = await startAmbiguous({ ...FAST, reviewDeadlineSeconds: 1 });
    const result = await wf.result();
    assert.equal(result.outcome, 'timed-out');
    assert.equal(result.lastError?.type, 'AmbiguousOutcome');
    assert.equal(await v1Creations(), 1);
  });

  it('refuses a decision while no review is open', async () => {
    const { workflowId } = await startVerification(client(), v1Intake(), { taskQueue: h.taskQueue, timing: FAST });
    const wf = client().workflow.getHandle<typeof verificationWorkflow>(workflowId);
    const refused = await updateFailure(wf.executeUpdate(resolveReviewUpdate, { args: [{ action: 'retry' }] }));
    assert.equal(refused.type, 'NotAwaitingReview');
    assert.equal((await wf.result()).outcome, 'completed');
    assert.equal((await h.sandbox.stats()).verificationsCreated, 1);
  });
});

describe('verificationWorkflow: v1 creation retries definite refusals itself', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;

  // One call at once, one a second: the payer lookup takes the token and the creation right after it gets a 429.
  before(async () => {
    h = await startWorkflowHarness({ rateBurst: 1, ratePerSecond: 1 });
  });
  after(async () => h?.stop());

  it('waits out a 429 and creates once, without asking anyone', async () => {
    const client = testTemporal().client;
    const { workflowId } = await startVerification(client, v1Intake(), { taskQueue: h.taskQueue, timing: FAST });
    const result = await client.workflow.getHandle<typeof verificationWorkflow>(workflowId).result();
    assert.equal(result.outcome, 'completed');
    const stats = await h.sandbox.stats();
    assert.equal(stats.verificationsCreated, 1);
    assert.deepEqual(stats.calls[V1_CREATE], { '201': 1, '429': 1 });
  });
});
