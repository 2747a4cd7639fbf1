import type { BatchCounts } from '../../workflows/shared/batch-types.js';

/** The five groups a person follows a batch by, then the two that only some batches have. */
export const PROGRESS_GROUPS = [
  'completed',
  'no-coverage',
  'failed',
  'needs input',
  'in progress',
  'cancelled',
  'duplicate',
] as const;
export type ProgressGroup = (typeof PROGRESS_GROUPS)[number];

/**
 * Counts by group; they add up to the batch's items. `completed` includes verifications created and waiting out their
 * grace period (the service has them); `failed` every other ending without a verification (failed, timed out,
 * abandoned, terminated, not started); `needs input` runs awaiting input and v1 creations awaiting review.
 */
export function progressGroups(c: BatchCounts): Record<ProgressGroup, number> {
  const { running: r, outcomes: o } = c;
  return {
    completed: o.completed + r.created,
    'no-coverage': o['no-coverage'],
    failed: o.failed + o['timed-out'] + o.abandoned + o.terminated + c.notStarted,
    'needs input': r['awaiting-input'] + r['needs-review'],
    'in progress': c.queued + r.validating + r['awaiting-discovery'] + r.creating,
    cancelled: o.cancelled + c.skipped,
    duplicate: c.duplicate,
  };
}

/** Settled: nothing is on its way any more (items may still wait for a person). */
export const SETTLED_STATES: readonly string[] = ['settled', 'finished', 'cancelled', 'closed', 'terminated', 'failed'];
