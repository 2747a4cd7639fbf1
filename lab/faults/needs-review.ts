import type { Client } from '@temporalio/client';
import { resolveReviewUpdate } from '../../workflows/verification/verification.js';
import { VerificationStage } from '../../workflows/shared/search-attributes.js';
import type { ReviewDecision } from '../../workflows/verification/verification.js';
import type { Stage } from '../../workflows/shared/stages.js';

/** The stage of a v1 verification whose creation may or may not have happened (docs/integrating/verifications.md). */
export const NEEDS_REVIEW_STAGE = 'needs-review' satisfies Stage;

export interface ReviewOutcome {
  workflowId: string;
  resolved: boolean;
  decision?: ReviewDecision['action'];
  note: string;
}

/**
 * What a person would do with one `needs-review` item, knowing what the service holds for its caller id
 * (`verificationIdsAtService`): record the one verification found, retry when none was created; several found is a
 * duplicate already (counted as such), and the first is recorded. The decision goes through the `resolveReview`
 * update, exactly as `eligibility review` sends it.
 */
export async function resolveNeedsReview(
  client: Client,
  workflowId: string,
  verificationIdsAtService: readonly string[] = [],
): Promise<ReviewOutcome> {
  const handle = client.workflow.getHandle(workflowId);
  const stage = (await handle.describe()).typedSearchAttributes.get(VerificationStage);
  if (stage !== NEEDS_REVIEW_STAGE) {
    return { workflowId, resolved: false, note: `not in ${NEEDS_REVIEW_STAGE} (stage ${stage ?? 'unknown'})` };
  }
  const [found] = verificationIdsAtService;
  const decision: ReviewDecision = found ? { action: 'record', verificationId: found } : { action: 'retry' };
  try {
    const answer = await handle.executeUpdate(resolveReviewUpdate, { args: [decision] });
    return {
      workflowId,
      resolved: true,
      decision: decision.action,
      note: `${NEEDS_REVIEW_STAGE}, resolved: ${answer.accepted}`,
    };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { workflowId, resolved: false, note: `${NEEDS_REVIEW_STAGE}, refused: ${reason}` };
  }
}
