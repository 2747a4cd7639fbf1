import type { BatchCounts } from '../../workflows/batch/batch.js';
import {
  groupOf,
  ITEM_OUTCOMES,
  PROGRESS_GROUPS,
  RUNNING_STAGES,
  type ProgressGroup,
} from '../../workflows/shared/stages.js';

/**
 * Counts by group (each stage's and outcome's group is in the stage table); they add up to the batch's items. Beside
 * the stages: queued items are in progress, items that could not start failed, skipped ones were cancelled.
 */
export function progressGroups(c: BatchCounts): Record<ProgressGroup, number> {
  const groups = Object.fromEntries(PROGRESS_GROUPS.map((g) => [g, 0])) as Record<ProgressGroup, number>;
  for (const stage of RUNNING_STAGES) groups[groupOf(stage)] += c.running[stage];
  for (const outcome of ITEM_OUTCOMES) groups[groupOf(outcome)] += c.outcomes[outcome];
  groups['in progress'] += c.queued;
  groups.failed += c.notStarted;
  groups.cancelled += c.skipped;
  groups.duplicate += c.duplicate;
  return groups;
}
