import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
} from '@temporalio/client';
import { awaitSettledUpdate, statusQuery } from '../../workflows/verification/verification.js';
import { isSettled } from '../../workflows/shared/stages.js';
import type { VerificationStatus } from '../../workflows/verification/verification.js';

/** The longest a front-desk answer may wait (`Prefer: wait`); more is asked of a poll, not of one request. */
export const MAX_WAIT_SECONDS = 30;

/**
 * The verification's status once it settles (created, awaiting input, needing review, or an outcome), or undefined
 * when it has not within `waitMs`. One update waits in the workflow; the wait gives up on the client side only, so the
 * verification is never touched by a caller who stopped waiting. A workflow that closed already, or that runs a build
 * without the update, is asked its status once.
 */
export async function awaitSettled(
  client: Client,
  workflowId: string,
  waitMs: number,
): Promise<VerificationStatus | undefined> {
  const handle = client.workflow.getHandle(workflowId);
  try {
    return await client.withDeadline(Date.now() + waitMs, () => handle.executeUpdate(awaitSettledUpdate));
  } catch (err) {
    // The SDK's word for the deadline passing, whichever call of the update (send or poll) it cut: CANCELLED too.
    if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return undefined;
    if (!(err instanceof WorkflowUpdateFailedError || err instanceof WorkflowNotFoundError)) throw err;
  }
  const status = await handle.query(statusQuery);
  return isSettled(status.stage) ? status : undefined;
}
