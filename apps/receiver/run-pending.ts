import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { runWorkflowId, verificationWorkflowId } from '../../workflows/shared/ids.js';
import { runAwaitingInputSignal } from '../../workflows/verification/verification.js';
import { VerificationId } from '../../workflows/shared/search-attributes.js';
import type { runInputWorkflow } from '../../workflows/verification/index.js';
import type { RunAwaitingInput, RunInputWorkflowInput } from '../../workflows/verification/verification.js';
import { signalIfOpen, type ActionContext, type ActionReport } from './actions.js';
import type { RunEvent } from './parse-delivery.js';
import { and, is, ofType } from '../../src/temporal/visibility-query.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { runInputStartMetadata } from '../../workflows/verification/verification.js';

const VISIBILITY_POLL_MS = 250;

interface FoundVerification {
  workflowId: string;
  running: boolean;
}

/**
 * The verification that created `verificationId`, running ones first. The service announces a run while the
 * verification's creation call is still returning, before the workflow has indexed its VerificationId, so an empty
 * answer is asked again for a moment before it is believed.
 */
async function findVerification(ctx: ActionContext, verificationId: string): Promise<FoundVerification | undefined> {
  const query = and(ofType(WorkflowType.verification), is(VerificationId, verificationId));
  const deadline = Date.now() + (ctx.visibilityWaitMs ?? 1500);
  for (;;) {
    let found: FoundVerification | undefined;
    for await (const info of ctx.client.workflow.list({ query, pageSize: 10 })) {
      const running = info.status.name === 'RUNNING';
      if (running) return { workflowId: info.workflowId, running };
      found ??= { workflowId: info.workflowId, running };
    }
    if (found || Date.now() + VISIBILITY_POLL_MS > deadline) return found;
    await sleep(VISIBILITY_POLL_MS);
  }
}

/** Starts `run-<flowRunId>`; one that already ran or runs for this run is left alone (a redelivery changes nothing). */
async function startRunWorkflow(ctx: ActionContext, event: RunEvent): Promise<string> {
  const workflowId = runWorkflowId(event.flowRunId);
  const input: RunInputWorkflowInput = { ...event };
  const typedSearchAttributes: SearchAttributePair[] = event.verificationId
    ? [{ key: VerificationId, value: event.verificationId }]
    : [];
  try {
    await ctx.client.workflow.start<typeof runInputWorkflow>(WorkflowType.runInput, {
      workflowId,
      taskQueue: ctx.taskQueue,
      args: [input],
      typedSearchAttributes,
      ...runInputStartMetadata(input),
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return workflowId;
}

/**
 * `run-pending`: tell the verification that owns the run (by the caller's id when the event names it, else found by
 * its verificationId); when that verification has closed or is not ours, the run gets its own workflow so the event
 * is not dropped (docs/developing/workflows.md).
 */
export async function runPending(ctx: ActionContext, event: RunEvent, eventId: string): Promise<ActionReport> {
  const signal: RunAwaitingInput = {
    flowRunId: event.flowRunId,
    eventId,
    ...(event.requested ? { requested: event.requested } : {}),
  };
  if (event.callerId !== undefined) {
    const workflowId = verificationWorkflowId(event.callerId);
    if (await signalIfOpen(ctx.client, workflowId, runAwaitingInputSignal, signal)) return { signalled: [workflowId] };
  }
  if (event.verificationId !== undefined) {
    const found = await findVerification(ctx, event.verificationId);
    if (found?.running && (await signalIfOpen(ctx.client, found.workflowId, runAwaitingInputSignal, signal))) {
      return { signalled: [found.workflowId] };
    }
  }
  return { signalled: [], started: await startRunWorkflow(ctx, event) };
}
