import type { Client } from '@temporalio/client';
import { type VisibleItemCounts } from '../../workflows/batch/batch.js';
import { VerificationStage } from '../../workflows/shared/search-attributes.js';
import { ITEM_OUTCOMES, OUTCOMES, RUNNING_STAGES } from '../../workflows/shared/stages.js';
import { is, isUnsetOrNoneOf, withStatus, withStatusIn, type Condition } from '../../src/temporal/visibility-query.js';
import { itemsQuery } from '../../src/batches/item-state.js';
import { completedUnindexed, UNINDEXED_COMPLETION } from '../../src/temporal/workflow-ending.js';

/**
 * A batch's items as visibility counts them: one count per running stage and per recorded outcome, one of the items
 * that completed from `created` (which they leave indexed, decision 66), two of those that closed without recording an
 * outcome, and one grouped by execution status (SQL visibility groups by ExecutionStatus only). Sixteen count calls
 * whatever the batch's size, none of them a billed action and none reaching a workflow. Every round of resubmission is
 * included; the batch subtracts the attempts it replaced.
 */
export async function countBatchItems(client: Client, batchId: string): Promise<VisibleItemCounts> {
  const count = async (...conditions: Condition[]) =>
    (await client.workflow.count(itemsQuery(batchId, ...conditions))).count;
  const closedByItself = withStatusIn(['Completed', 'Failed']);
  // Each count is its own moment of visibility, so an item that closes while they are taken must never land in two of
  // them or read as a failure. Closed items first, each in exactly one count whatever the moment; running stages
  // after: an item that closes in between is counted as still running or, until the next count, not at all (queued),
  // never as closed twice. Once items stop moving the counts are exact.
  const [byStatus, recorded, completedFromCreated, unrecorded] = await Promise.all([
    client.workflow.count(`${itemsQuery(batchId)} GROUP BY ExecutionStatus`),
    Promise.all(OUTCOMES.map((o) => count(closedByItself, is(VerificationStage, o)))),
    count(completedUnindexed),
    // Closed by itself without an outcome stage: an unexpected failure (item-state.ts reads it the same way). Asked
    // directly, not as the status count minus the outcome counts: those are two moments, and an item that closed
    // between them would read as failed.
    Promise.all([
      count(withStatus('Failed'), isUnsetOrNoneOf(VerificationStage, OUTCOMES)),
      count(withStatus('Completed'), isUnsetOrNoneOf(VerificationStage, [...OUTCOMES, UNINDEXED_COMPLETION.from])),
    ]),
  ]);
  const running = await Promise.all(
    RUNNING_STAGES.map((stage) => count(withStatus('Running'), is(VerificationStage, stage))),
  );
  const status = (name: string) => byStatus.groups.find((g) => String(g.groupValues[0]) === name)?.count ?? 0;

  const counts: VisibleItemCounts = {
    total: 0,
    running: Object.fromEntries(
      RUNNING_STAGES.map((stage, i) => [stage, running[i] ?? 0]),
    ) as VisibleItemCounts['running'],
    outcomes: Object.fromEntries(ITEM_OUTCOMES.map((o) => [o, 0])) as VisibleItemCounts['outcomes'],
  };
  OUTCOMES.forEach((o, i) => (counts.outcomes[o] = recorded[i] ?? 0));
  counts.outcomes[UNINDEXED_COMPLETION.outcome] += completedFromCreated;
  counts.outcomes.failed += unrecorded[0] + unrecorded[1];
  counts.outcomes['timed-out'] += status('TimedOut');
  counts.outcomes.cancelled += status('Canceled');
  counts.outcomes.terminated += status('Terminated');
  // Running before its first stage was recorded: counted as validating, the stage before all others.
  const unstaged = status('Running') - running.reduce((a, b) => a + b, 0);
  counts.running.validating += Math.max(0, unstaged);
  counts.total =
    Object.values(counts.running).reduce((a, b) => a + b, 0) +
    Object.values(counts.outcomes).reduce((a, b) => a + b, 0);
  return counts;
}
