import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CallOutcomes } from '../../activities/outcomes.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { readQueueRateLimit } from '../../src/temporal/task-queue-rate.js';
import { GovernorReporter } from '../../workers/governor-reporter.js';
import { governorStatusQuery, governorWorkflowId, outcomeReportSignal } from '../../workflows/governor/governor.js';
import type { GovernorSettings, OutcomeReport } from '../../workflows/governor/governor.js';
import type { governorWorkflow } from '../../workflows/governor/index.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

/**
 * No hold, no wait between raises and no plateau at the limit: each report moves the rate, so a test needs no real
 * waiting (the defaults are tested in aimd.test.ts).
 */
const FAST: Partial<GovernorSettings> = {
  initialRps: 10,
  holdMs: 0,
  raiseEveryMs: 0,
  slowStartEveryMs: 0,
  probeAfterMs: 0,
};

const report = (fields: Partial<OutcomeReport>): OutcomeReport => ({
  workerId: 'worker-1',
  answered: 0,
  failed: 0,
  rateLimited: 0,
  retryAfterMs: 0,
  intervalMs: 1000,
  maxRps: null,
  ...fields,
});

async function listRuns(queue: string) {
  const runs: { status: { name: string } }[] = [];
  for await (const run of testTemporal().client.workflow.list({
    query: `WorkflowId = '${governorWorkflowId(queue)}'`,
  })) {
    runs.push(run);
  }
  return runs;
}

describe('traffic governor', function () {
  this.timeout(60_000);
  let harness: WorkflowHarness;
  before(async () => {
    harness = await startWorkflowHarness({ rateBurst: 1000, ratePerSecond: 1000 });
  });
  after(() => harness?.stop());

  /**
   * Signal-with-start as a worker's reporter sends it. The governor of `governed` runs on the harness's queue, so
   * each test has its own governor and queue config while one worker runs them all.
   */
  async function send(governed: string, sent: OutcomeReport, settings: Partial<GovernorSettings> = FAST) {
    await testTemporal().client.workflow.signalWithStart<typeof governorWorkflow, [OutcomeReport]>('governorWorkflow', {
      workflowId: governorWorkflowId(governed),
      taskQueue: harness.taskQueue,
      args: [{ taskQueue: governed, maxRps: sent.maxRps, settings }],
      signal: outcomeReportSignal,
      signalArgs: [sent],
    });
  }

  /** The queue's rate as the server enforces it, once it equals `expected`. */
  const queueRateBecomes = (queue: string, expected: number, withinMs = 15_000) =>
    eventually(
      async () => {
        const rps = await readQueueRateLimit(testTemporal().client, queue);
        return rps === expected ? rps : undefined;
      },
      withinMs,
      `the rate of ${queue} to become ${expected}`,
    );

  const status = (queue: string) =>
    testTemporal().client.workflow.getHandle(governorWorkflowId(queue)).query(governorStatusQuery);

  it('a 429 lowers the queue rate, to a share of what the service served', async () => {
    const queue = `governed-${randomUUID()}`;
    await send(queue, report({}));
    await queueRateBecomes(queue, 10);
    // 6 answered of 10 calls: at 10 calls a second, the service's limit is about 6, not 10.
    await send(queue, report({ answered: 6, rateLimited: 4, retryAfterMs: 1000 }));
    await queueRateBecomes(queue, 5.1);
    const shown = await status(queue);
    assert.equal(shown.limitedAtRps, 6);
    assert.equal(shown.totals.cuts, 1);
    assert.match(shown.lastChange?.reason ?? '', /429/);
    // Within the service's Retry-After, refusals of calls sent before the cut do not cut again.
    await send(queue, report({ answered: 4, rateLimited: 4 }));
    await eventually(async () => ((await status(queue)).totals.reports === 3 ? true : undefined));
    assert.equal((await status(queue)).rps, 5.1);
    await recordHistory('governor-cut', testTemporal().client.workflow.getHandle(governorWorkflowId(queue)));
  });

  it('a few 429s among many calls cut from the rate itself, not from what was served', async () => {
    const queue = `governed-${randomUUID()}`;
    await send(queue, report({}));
    await queueRateBecomes(queue, 10);
    await send(queue, report({ answered: 4, rateLimited: 1 }));
    await queueRateBecomes(queue, 8.5);
  });

  it('calls served raise it (slow start until the first 429, then closing in), never above ELIGIBILITY_MAX_RPS', async () => {
    const queue = `governed-${randomUUID()}`;
    await send(queue, report({}));
    await queueRateBecomes(queue, 10);
    await send(queue, report({ answered: 10 }));
    await queueRateBecomes(queue, 20);
    // Demand well under the rate: the rate is not what holds calls back, so it is not raised.
    await send(queue, report({ answered: 5 }));
    // A fifth of the calls or more refused: the limit is about the share of the rate the service answered (16 of 21
    // calls at 20 a second: 15.24), not the rate.
    await send(queue, report({ answered: 16, rateLimited: 5 }));
    await queueRateBecomes(queue, 12.95);
    await send(queue, report({ answered: 14 }));
    await queueRateBecomes(queue, 14.1);
    // The workers' ELIGIBILITY_MAX_RPS caps it from then on, probes above the limit included.
    for (let i = 0; i < 6; i++) await send(queue, report({ answered: 16, maxRps: 15.5 }));
    await queueRateBecomes(queue, 15.5);
    await eventually(async () => ((await status(queue)).totals.reports === 11 ? true : undefined));
    const shown = await status(queue);
    assert.equal(shown.rps, 15.5);
    assert.equal(shown.mode, 'known');
    assert.equal(await readQueueRateLimit(testTemporal().client, queue), 15.5);
  });

  it('with a known limit it starts at ELIGIBILITY_MAX_RPS', async () => {
    const queue = `governed-${randomUUID()}`;
    await send(queue, report({ maxRps: 40 }));
    await queueRateBecomes(queue, 40);
    assert.equal((await status(queue)).mode, 'known');
  });

  it('is one governor for two workers, and continues as new with its state', async () => {
    // The reporters start the governor on the queue they report for: the harness's, which its worker polls.
    const queue = harness.taskQueue;
    const { client } = testTemporal();
    const workers = ['worker-a', 'worker-b'].map((workerId) => {
      const outcomes = new CallOutcomes();
      const reporter = new GovernorReporter({
        client,
        taskQueue: queue,
        workerId,
        maxRps: null,
        settings: FAST,
        continueAsNewAfterEvents: 20,
        outcomes,
        minMs: 0,
        afterCalls: 10,
      });
      return { outcomes, reporter };
    });
    // Both start it (signal-with-start): the second start finds the first governor running.
    await Promise.all(workers.map((w) => w.reporter.start()));
    const handle = client.workflow.getHandle(governorWorkflowId(queue));
    const firstRunId = (await handle.describe()).runId;
    try {
      for (let round = 0; round < 8; round++) {
        for (const w of workers) for (let i = 0; i < 10; i++) w.outcomes.record();
        await eventually(() => Promise.resolve(workers.every((w) => w.outcomes.pending.answered === 0) || undefined));
      }
    } finally {
      await Promise.all(workers.map((w) => w.reporter.stop()));
    }
    const shown = await eventually(async () => {
      const s = await status(queue);
      return s.totals.calls === 160 ? s : undefined;
    });
    assert.equal(shown.workers, 2);
    assert.equal(shown.totals.reports, 2 + 16);
    const runs = await listRuns(queue);
    assert.ok(runs.length >= 2, `expected a continue-as-new, found ${runs.length} run(s)`);
    assert.equal(runs.filter((r) => r.status.name === 'RUNNING').length, 1);
    assert.notEqual((await handle.describe()).runId, firstRunId);
    await recordHistory('governor-continued-as-new', client.workflow.getHandle(governorWorkflowId(queue), firstRunId));
  });

  it('keeps its rate across a restart of the workers that run it, and governs on', async function () {
    // Beside the whole suite on two cores the new worker's first task can take most of a minute.
    this.timeout(120_000);
    const queue = `governed-${randomUUID()}`;
    await send(queue, report({}));
    await send(queue, report({ answered: 10 }));
    await queueRateBecomes(queue, 20);
    // Every worker of the governor's queue goes; a new one takes over its history. (Its next task waits out its sticky
    // queue on the stopped worker, 10 s, before the new one takes it.)
    await harness.stop();
    harness = await startWorkflowHarness({ rateBurst: 1000, ratePerSecond: 1000 }, { taskQueue: harness.taskQueue });
    await send(queue, report({ answered: 5 }));
    const heard = await eventually(
      async () => {
        const s = await status(queue);
        return s.totals.reports === 3 ? s : undefined;
      },
      90_000,
      'the new worker to take the report',
    );
    // The rate it found is kept, not started over; and it still governs: a 429 cuts it.
    assert.equal(heard.rps, 20);
    assert.equal(await readQueueRateLimit(testTemporal().client, queue), 20);
    await send(queue, report({ answered: 10, rateLimited: 10, retryAfterMs: 1000 }));
    const cut = await eventually(async () => {
      const s = await status(queue);
      return s.totals.cuts === 1 ? s : undefined;
    });
    assert.ok(cut.rps < 20, `expected a cut below 20, found ${cut.rps}`);
    await queueRateBecomes(queue, cut.rps);
    assert.equal(cut.totals.raises, 1);
  });

  it('hears a 429 from the service through the activities and the reporter, and cuts the rate', async () => {
    const outcomes = new CallOutcomes();
    // One call allowed, then a refusal for a long while: the payer lookup passes, the creation is refused.
    const limited = await startWorkflowHarness({ rateBurst: 1, ratePerSecond: 0.01 }, { outcomes });
    const { client } = testTemporal();
    const reporter = new GovernorReporter({
      client,
      taskQueue: limited.taskQueue,
      workerId: 'limited-worker',
      maxRps: null,
      settings: FAST,
      outcomes,
      minMs: 0,
    });
    try {
      await reporter.start();
      await queueRateBecomes(limited.taskQueue, 10);
      const { workflowId } = await startVerification(
        client,
        {
          id: `governed-${randomUUID()}`,
          patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1980', state: 'NY' },
          payerId: '60054',
          placeOfServiceCode: '11',
          specialtyCode: 'PRC',
        },
        { taskQueue: limited.taskQueue },
      );
      const cut = await eventually(
        async () => {
          const rps = await readQueueRateLimit(client, limited.taskQueue);
          return rps !== undefined && rps < 10 ? rps : undefined;
        },
        20_000,
        'the governor to cut the rate',
      );
      assert.ok(cut <= 8.5, `cut to ${cut}`);
      const shown = await status(limited.taskQueue);
      assert.ok(shown.totals.rateLimited >= 1);
      await client.workflow.getHandle(workflowId).terminate('test over');
    } finally {
      await reporter.stop();
      await limited.stop();
    }
  });
});
