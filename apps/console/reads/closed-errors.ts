import { WorkflowFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { LRUCache } from 'lru-cache';
import { failureDetails } from '../../../workflows/shared/failure-details.js';
import { NON_RETRYABLE_FAILURE_TYPES, type FailureType } from '../../../workflows/shared/failure-types.js';
import type { VerificationResult } from '../../../workflows/verification/verification.js';

/** How a closed verification's last error reads: its kind (`InvalidRequest`, `NotFound`…) and the field it named. */
export interface ClosedError {
  type?: string;
  param?: string;
}

/** A closed run's ending never changes: each is read once, then kept for every later page. */
const endings = new LRUCache<string, ClosedError>({ max: 20_000 });

/**
 * The last error of a closed verification, from how it closed: a failure carries it (its type, its details' field),
 * a result its `lastError`. One history read (the close event), not a billed action.
 */
export async function closedErrorOf(client: Client, workflowId: string): Promise<ClosedError> {
  const cached = endings.get(workflowId);
  if (cached) return cached;
  let ending: ClosedError;
  try {
    const result = (await client.workflow.getHandle(workflowId).result()) as VerificationResult | undefined;
    const last = result?.lastError;
    ending = last ? { type: last.type, ...(last.param ? { param: last.param } : {}) } : {};
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure) {
      const { param } = failureDetails(cause);
      ending = { ...(cause.type ? { type: cause.type } : {}), ...(param ? { param } : {}) };
    } else ending = { type: 'unexpected' };
  }
  endings.set(workflowId, ending);
  return ending;
}

/** A failure no resubmission can fix: the same request meets the same refusal (unknown payer, invalid field). */
export const cannotSucceed = (error: ClosedError): boolean =>
  NON_RETRYABLE_FAILURE_TYPES.includes(error.type as FailureType);

/** What the failed list groups by: the field the error named, else its kind. */
export const errorField = (error: ClosedError): string => error.param ?? error.type ?? 'none recorded';
