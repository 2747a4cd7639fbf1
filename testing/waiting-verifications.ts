import { RUN_REQUESTED_INPUT } from '../sandbox/verifications.js';
import { startVerification } from '../src/temporal/start-verification.js';
import type { verificationWorkflow } from '../workflows/verification/index.js';
import { runAwaitingInputSignal, statusQuery } from '../workflows/verification/verification.js';
import { FAST, v1Intake, v2Intake } from './fixtures.js';
import { testTemporal } from './temporal.js';
import { eventually, type WorkflowHarness } from './workflow-harness.js';

/*
 * Verifications the console's tests show to an operator: one whose run awaits input, one that awaits a review.
 */

const client = () => testTemporal().client;

/**
 * A v2 verification (of `tenant`, if given) whose run awaits input, as the webhook receiver would have announced it;
 * unless `untilPending` is false, once its status lists the run as pending.
 */
export async function verificationAwaitingInput(
  h: WorkflowHarness,
  options: { tenant?: string; untilPending?: boolean } = {},
) {
  const { workflowId } = await startVerification(client(), v2Intake({ specialtyCode: 'ABA' }), {
    taskQueue: h.taskQueue,
    timing: FAST,
    ...(options.tenant ? { tenant: options.tenant } : {}),
  });
  return { workflowId, ...(await announcePendingRun(h, workflowId, options)) };
}

/**
 * Tells a running ABA verification (one a patient's check started, say) that its run awaits input, as the webhook
 * receiver would from the sandbox's event; unless `untilPending` is false, once its status lists the run as pending.
 */
export async function announcePendingRun(
  h: WorkflowHarness,
  workflowId: string,
  options: { untilPending?: boolean } = {},
) {
  const wf = client().workflow.getHandle<typeof verificationWorkflow>(workflowId);
  // A patient's check may not have started its verification yet: asked again until it has.
  const verificationId = await eventually(async () =>
    wf.query(statusQuery).then(
      (s) => s.verificationId,
      () => undefined,
    ),
  );
  const [run] = await eventually(async () => {
    const runs = await h.sandbox.runs(verificationId);
    return runs.length > 0 ? runs : undefined;
  });
  // What the receiver passes on from the sandbox's event: what the run asks for.
  await wf.signal(runAwaitingInputSignal, { flowRunId: run!.flowRunId, requested: RUN_REQUESTED_INPUT });
  if (options.untilPending !== false) {
    await eventually(async () => ((await wf.query(statusQuery)).pendingRuns.length > 0 ? true : undefined));
  }
  return { wf, flowRunId: run!.flowRunId };
}

/** A v1 creation (of `tenant`, if given) whose response was lost: it waits for a person's decision. */
export async function verificationNeedingReview(h: WorkflowHarness, options: { tenant?: string } = {}) {
  await h.sandbox.setFaults({ dropResponses: 1 });
  const { workflowId } = await startVerification(client(), v1Intake(), {
    taskQueue: h.taskQueue,
    timing: FAST,
    ...(options.tenant ? { tenant: options.tenant } : {}),
  });
  const wf = client().workflow.getHandle<typeof verificationWorkflow>(workflowId);
  await eventually(async () => ((await wf.query(statusQuery)).stage === 'needs-review' ? true : undefined));
  return { wf, workflowId };
}
