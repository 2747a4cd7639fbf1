import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ApplicationFailure,
  WithStartWorkflowOperation,
  WorkflowFailedError,
  type WorkflowHandle,
} from '@temporalio/client';
import { signalDiscoveryUpdated } from '../../src/temporal/discovery-updated.js';
import { startVerification, type StartVerificationOptions } from '../../src/temporal/start-verification.js';
import { discoveryWorkflowId } from '../../workflows/shared/ids.js';
import type { Timing } from '../../workflows/shared/timing.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { recordHistory } from '../../testing/histories.js';
import { DISCOVERY_PATIENT, pendingDiscovery } from '../../testing/sandbox.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { discoveryUpdatedSignal, discoveryWaitersQuery } from '../../workflows/discovery/discovery.js';
import type { discoveryWorkflow } from '../../workflows/discovery/index.js';
import { registerDiscoveryWaiterUpdate } from '../../workflows/verification/verification.js';

/** Polls once an hour: within a test only a webhook's update (or a registration) moves a wait on. */
const HOURLY: Partial<Timing> = { ...FAST, pollInitialSeconds: 3600, pollMaxSeconds: 3600 };

/** Counts of what a workflow's history holds, by activity type and by the signals it sent or received. */
async function historyCounts(handle: WorkflowHandle) {
  const events = (await handle.fetchHistory()).events ?? [];
  const activity = (name: string) =>
    events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === name).length;
  return {
    fetches: activity('fetchDiscovery'),
    registrations: activity('registerDiscoveryWaiter'),
    payerLookups: activity('lookupPayer'),
    timers: events.filter((e) => e.timerStartedEventAttributes).length,
    signalsSent: events.filter((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes).length,
    signalsReceived: events.filter((e) => e.workflowExecutionSignaledEventAttributes).length,
  };
}

describe('discovery-<id> owns its waiters', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  const client = () => testTemporal().client;

  before(async () => {
    h = await startWorkflowHarness();
  });
  after(async () => h?.stop());

  async function startWaiter(
    discoveryId: string,
    timing: Partial<Timing> = HOURLY,
    payerId?: string,
    start: Pick<StartVerificationOptions, 'lane' | 'tenant' | 'retryWindowSeconds'> = {},
  ) {
    const request = v2Intake({ payerId, discoveryId });
    delete (request.patient as { memberId?: string }).memberId;
    const { workflowId } = await startVerification(client(), request, { ...start, taskQueue: h.taskQueue, timing });
    return client().workflow.getHandle<typeof verificationWorkflow>(workflowId);
  }

  const owner = (discoveryId: string) =>
    client().workflow.getHandle<typeof discoveryWorkflow>(discoveryWorkflowId(discoveryId));

  /** How a verification ended as `failed`: its failure's type and field, and the stage its index holds. */
  async function failureOf(handle: WorkflowHandle) {
    const err = await handle.result().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof WorkflowFailedError, `the verification failed: ${String(err)}`);
    assert.ok(err.cause instanceof ApplicationFailure);
    const [details] = err.cause.details as [{ param?: string }];
    const { searchAttributes } = await handle.describe();
    return { type: err.cause.type, param: details.param, stage: searchAttributes.VerificationStage };
  }

  async function waitersOf(discoveryId: string, count: number): Promise<string[]> {
    return eventually(
      async () => {
        const waiters = await owner(discoveryId)
          .query(discoveryWaitersQuery)
          .catch(() => []);
        return waiters.length >= count ? waiters : undefined;
      },
      15_000,
      `${count} waiters registered with discovery-<id>`,
    );
  }

  it('keeps a waiter once however often it registers', async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    const register = (waiterId: string) =>
      client().workflow.executeUpdateWithStart(registerDiscoveryWaiterUpdate, {
        args: [{ waiterId }],
        startWorkflowOperation: new WithStartWorkflowOperation<typeof discoveryWorkflow>(WorkflowType.discovery, {
          workflowId: discoveryWorkflowId(discoveryId),
          taskQueue: h.taskQueue,
          args: [{ discoveryId, timing: HOURLY, looked: true }],
          workflowIdConflictPolicy: 'USE_EXISTING',
        }),
      });
    const first = await register('verification-a');
    assert.deepEqual(first, { looked: false }, 'registered; the run it started has not looked yet');
    // An activity's retry repeats the registration: the set stays exact.
    await register('verification-a');
    await register('verification-b');
    assert.deepEqual(await owner(discoveryId).query(discoveryWaitersQuery), ['verification-a', 'verification-b']);
    const refused = await register('').then(
      () => 'accepted',
      (err: unknown) => String((err as { cause?: Error }).cause?.message),
    );
    assert.match(refused, /waiterId/, 'a registration without a waiter id is refused by the validator');
    await owner(discoveryId).cancel();
  });

  it("hands one fetch of the discovery to every waiter, woken by one update of the discovery's webhook", async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    const waiters = await Promise.all([1, 2, 3].map(() => startWaiter(discoveryId)));
    assert.deepEqual((await waitersOf(discoveryId, 3)).sort(), waiters.map((w) => w.workflowId).sort());
    await h.sandbox.completeDiscovery(discoveryId, true);
    await owner(discoveryId).signal(discoveryUpdatedSignal, { discoveryId, eventId: 'evt-1' });
    const results = await Promise.all(waiters.map((w) => w.result()));
    assert.deepEqual(
      results.map((r) => [r.outcome, r.discovery?.successful, Boolean(r.discovery?.memberId)]),
      [1, 2, 3].map(() => ['completed', true, true]),
    );
    const result = await owner(discoveryId).result();
    assert.equal(result.outcome, 'complete');
    const counts = await historyCounts(owner(discoveryId));
    assert.equal(counts.fetches, 1, 'one fetch for all three: started by a waiter, it skipped its own first look');
    assert.equal(counts.signalsSent, 3, 'one handout per waiter');
    for (const w of waiters) {
      const mine = await historyCounts(w);
      assert.deepEqual(
        [mine.fetches, mine.registrations, mine.signalsReceived, mine.payerLookups],
        [0, 1, 1, 0],
        'each waiter registered once and was handed the discovery, fetching nothing itself, and looked up no payer',
      );
    }
    await recordHistory('discovery-owner-three-waiters', owner(discoveryId));
  });

  it("starts discovery-<id> in its first waiter's lane and tenant, so its tasks and fetch go where the waiter's would", async () => {
    const lanes = [
      { lane: 'front-desk', tenant: 'clinic-fd', priorityKey: 2 },
      { lane: 'bulk', tenant: 'clinic-bulk', priorityKey: 3 },
    ] as const;
    for (const { lane, tenant, priorityKey } of lanes) {
      const { discoveryId } = await pendingDiscovery(h.sandbox);
      await startWaiter(discoveryId, HOURLY, undefined, { lane, tenant });
      await waitersOf(discoveryId, 1);
      const { priority } = await owner(discoveryId).describe();
      assert.deepEqual([priority?.priorityKey, priority?.fairnessKey], [priorityKey, tenant], `a ${lane} waiter's`);
      await owner(discoveryId).cancel();
    }
  });

  it('looks up a payer the intake named, though a discovery found the member id', async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    const waiter = await startWaiter(discoveryId, HOURLY, v2Intake().payerId);
    await waitersOf(discoveryId, 1);
    await h.sandbox.completeDiscovery(discoveryId, true);
    await owner(discoveryId).signal(discoveryUpdatedSignal, { discoveryId, eventId: 'evt-named-payer' });
    assert.equal((await waiter.result()).outcome, 'completed');
    assert.equal((await historyCounts(waiter)).payerLookups, 1, 'the payer the intake named is looked up');
  });

  it('gives a waiter that registers after the discovery ended the result at once', async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    const early = await startWaiter(discoveryId);
    await waitersOf(discoveryId, 1);
    await h.sandbox.completeDiscovery(discoveryId, true);
    await owner(discoveryId).signal(discoveryUpdatedSignal, { discoveryId });
    assert.equal((await early.result()).outcome, 'completed');
    assert.equal((await owner(discoveryId).result()).outcome, 'complete');
    // discovery-<id> has closed; a verification that comes now still finishes at once, not at an hourly poll.
    const late = await startWaiter(discoveryId);
    const started = Date.now();
    const result = await late.result();
    assert.equal(result.outcome, 'completed');
    assert.ok(Date.now() - started < 5_000, `completed ${Date.now() - started} ms after its start`);
    assert.equal((await historyCounts(late)).signalsReceived, 0, 'its registration step answered it');
  });

  it('strands no waiter that registers while the discovery completes (a burst of 12 around the webhook)', async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    const first = await startWaiter(discoveryId);
    await waitersOf(discoveryId, 1);
    const burst = Array.from({ length: 12 }, () => startWaiter(discoveryId));
    await h.sandbox.completeDiscovery(discoveryId, true);
    await owner(discoveryId).signal(discoveryUpdatedSignal, { discoveryId });
    const waiters = [first, ...(await Promise.all(burst))];
    const started = Date.now();
    const outcomes = await Promise.all(waiters.map(async (w) => (await w.result()).outcome));
    assert.deepEqual(
      outcomes,
      waiters.map(() => 'completed'),
    );
    assert.ok(Date.now() - started < 15_000, 'none waited for an hourly poll');
  });

  it('fetches at once a webhook that reached the run its waiter started before its first task', async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    // A queue no worker polls yet: the start and the webhook both wait there, so the first task holds both.
    const queue = `test-${randomUUID()}`;
    const run = await client().workflow.start<typeof discoveryWorkflow>(WorkflowType.discovery, {
      workflowId: discoveryWorkflowId(discoveryId),
      taskQueue: queue,
      args: [{ discoveryId, timing: HOURLY, looked: true, waiters: [] }],
    });
    await h.sandbox.completeDiscovery(discoveryId, true);
    await signalDiscoveryUpdated(client(), queue, { discoveryId, eventId: 'evt-before-first-task' });
    const late = await startWorkflowHarness(undefined, { taskQueue: queue, sandbox: h.sandbox });
    try {
      // Not at the hourly poll: the webhook is a reason to fetch even though the waiter had looked. A run that left it
      // to the poll fails here in seconds, with its reason, not at the suite's timeout.
      const outcome = await Promise.race([
        run.result().then((r) => r.outcome),
        sleep(20_000, 'still running after 20 s: the webhook was left to the hourly poll', { ref: false }),
      ]);
      assert.equal(outcome, 'complete');
      const counts = await historyCounts(run);
      assert.deepEqual([counts.fetches, counts.timers], [1, 0], 'one fetch, for the webhook, and no poll timer');
      await recordHistory('discovery-owner-early-webhook', run);
    } finally {
      await late.stop();
    }
  });

  it('polls once per discovery, not once per waiter, when no webhook comes', async () => {
    const { discoveryId } = await h.sandbox.createDiscovery({ ...DISCOVERY_PATIENT, delayMs: 2500 });
    const waiters = await Promise.all([1, 2, 3].map(() => startWaiter(discoveryId, { ...FAST, pollMaxSeconds: 0.5 })));
    const outcomes = await Promise.all(waiters.map(async (w) => (await w.result()).outcome));
    assert.deepEqual(outcomes, ['completed', 'completed', 'completed']);
    const counts = await historyCounts(owner(discoveryId));
    // Started by a waiter (which looked), it polls: a timer, then a fetch, as often as the discovery takes.
    assert.ok(
      counts.fetches >= 1 && counts.timers >= counts.fetches,
      `discovery-<id> polled: ${JSON.stringify(counts)}`,
    );
    assert.equal(counts.signalsReceived, 0, 'no webhook: polling alone found it');
    for (const w of waiters) {
      const mine = await historyCounts(w);
      assert.deepEqual([mine.fetches, mine.registrations], [0, 1], 'a waiter polls nothing itself');
      // The grace period's timer is the only one: no poll timer in a waiter.
      assert.equal(mine.timers, 1);
    }
    await recordHistory('discovery-owner-polled', owner(discoveryId));
  });

  it('fails a verification whose discovery the service does not know, naming discoveryId', async () => {
    const waiter = await startWaiter(`disc_unknown_${randomUUID()}`);
    assert.deepEqual(await failureOf(waiter), { type: 'InvalidRequest', param: 'discoveryId', stage: ['failed'] });
  });

  it('hands its waiters a refusal the service gives for good, instead of failing and stranding them', async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    const waiter = await startWaiter(discoveryId);
    await waitersOf(discoveryId, 1);
    await h.sandbox.reset(); // the service forgets the discovery: its fetch is answered 404
    await owner(discoveryId).signal(discoveryUpdatedSignal, { discoveryId, eventId: `evt-${randomUUID()}` });
    const result = await owner(discoveryId).result();
    assert.deepEqual([result.outcome, result.error?.param], ['failed', 'discoveryId']);
    assert.deepEqual(await failureOf(waiter), { type: 'InvalidRequest', param: 'discoveryId', stage: ['failed'] });
  });

  it('takes a fetch that ran out of time as no news, and still hands out at the deadline', async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    const waiter = await startWaiter(discoveryId, { ...HOURLY, discoveryDeadlineSeconds: 4 });
    await waitersOf(discoveryId, 1);
    await h.sandbox.setFaults({ error500Rate: 1 });
    try {
      // The webhook's fetch meets a service that answers 500 until the discovery's deadline, not the call's hour.
      await owner(discoveryId).signal(discoveryUpdatedSignal, { discoveryId, eventId: `evt-${randomUUID()}` });
      assert.equal((await owner(discoveryId).result()).outcome, 'timed-out');
      assert.equal((await waiter.result()).outcome, 'timed-out');
    } finally {
      await h.sandbox.setFaults({ error500Rate: 0 });
    }
  });

  it("retries a waiter's look at its discovery within the verification's retry window, not for the call's hour", async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    await h.sandbox.setFaults({ error500Rate: 1 });
    try {
      const waiter = await startWaiter(discoveryId, HOURLY, undefined, { retryWindowSeconds: 3 });
      assert.deepEqual(await failureOf(waiter), { type: 'ServerError', param: undefined, stage: ['failed'] });
    } finally {
      await h.sandbox.setFaults({ error500Rate: 0 });
    }
  });

  it('a cancelled waiter does not stop the others', async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    const [gone, kept] = await Promise.all([startWaiter(discoveryId), startWaiter(discoveryId)]);
    await waitersOf(discoveryId, 2);
    await gone.cancel();
    await h.sandbox.completeDiscovery(discoveryId, true);
    await owner(discoveryId).signal(discoveryUpdatedSignal, { discoveryId });
    assert.equal((await kept.result()).outcome, 'completed');
    assert.equal((await owner(discoveryId).result()).outcome, 'complete');
  });
});
