import type { Client } from '@temporalio/client';
import { VerificationStage } from '../../workflows/search-attributes.js';

/**
 * The stage of a v1 verification whose creation may or may not have happened (DESIGN §10). Written here until the
 * workflows define it; then this constant should be imported from `workflows/` instead.
 */
export const NEEDS_REVIEW_STAGE = 'needs-review';

export interface ReviewOutcome {
  workflowId: string;
  resolved: boolean;
  note: string;
}

/**
 * What a person would do with one `needs-review` item, knowing what the service holds for its caller id
 * (`verificationIdsAtService`): record the one verification found, retry when none was created, and look closer when
 * there are several. This build has no review update yet, so the item is only found (through the search attribute)
 * and reported unresolved; sending the decision through the review update is the one step to add here.
 */
export async function resolveNeedsReview(
  client: Client,
  workflowId: string,
  verificationIdsAtService: readonly string[] = [],
): Promise<ReviewOutcome> {
  const description = await client.workflow.getHandle(workflowId).describe();
  const stage = description.typedSearchAttributes.get(VerificationStage);
  if (stage !== NEEDS_REVIEW_STAGE) {
    return { workflowId, resolved: false, note: `not in ${NEEDS_REVIEW_STAGE} (stage ${stage ?? 'unknown'})` };
  }
  const decision =
    verificationIdsAtService.length === 1
      ? 'record the verification found'
      : verificationIdsAtService.length === 0
        ? 'retry'
        : 'look closer (several found)';
  return {
    workflowId,
    resolved: false,
    note: `${NEEDS_REVIEW_STAGE}, unresolved (no review update in this build; would: ${decision})`,
  };
}
