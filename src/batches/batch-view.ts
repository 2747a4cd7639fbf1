import type { BatchView } from './describe.js';
import { progressGroups } from './groups.js';
import {
  groupOf,
  ITEM_OUTCOMES,
  PROGRESS_GROUPS,
  RUNNING_STAGES,
  type ProgressGroup,
} from '../../workflows/shared/stages.js';
import type { BatchCounts } from '../../workflows/batch/batch.js';
import { fields, table, type Cell } from '../text-format.js';
import { batchStateWords } from './state-words.js';

/** How each item ended or stands, one line per non-zero count, with the group it counts in (the stage table's). */
export function outcomeTable(counts: BatchCounts): string {
  const { running: r, outcomes: o } = counts;
  const lines: [string, number, ProgressGroup][] = [
    ...ITEM_OUTCOMES.map((s): [string, number, ProgressGroup] => [s, o[s], groupOf(s)]),
    ['not started', counts.notStarted, 'failed'],
    ['queued', counts.queued, 'in progress'],
    ...RUNNING_STAGES.map((s): [string, number, ProgressGroup] => [
      s === 'created' ? 'created (grace period)' : s,
      r[s],
      groupOf(s),
    ]),
    ['skipped (cancelled)', counts.skipped, 'cancelled'],
    ['duplicate', counts.duplicate, 'duplicate'],
  ];
  const order = (g: ProgressGroup) => PROGRESS_GROUPS.indexOf(g);
  const shown: Cell[][] = lines
    .filter(([, n]) => n > 0)
    .sort((a, b) => order(a[2]) - order(b[2]))
    .map(([name, n, group]) => [name, n, group]);
  shown.push(['items', counts.items, '']);
  if (counts.invalid > 0) shown.push(['invalid rows (not items)', counts.invalid, '']);
  return table(['outcome', 'count', 'group'], shown);
}

/** One line of counts by group: what a progress line and `batches list` show. */
export function groupLine(counts: BatchCounts): string {
  const groups = progressGroups(counts);
  return PROGRESS_GROUPS.filter((g, i) => i < 5 || groups[g] > 0)
    .map((g) => `${g} ${groups[g]}`)
    .join(', ');
}

export function batchFields(view: BatchView): string {
  const resubmission = view.lastResubmission;
  return fields([
    ['batchId', view.batchId],
    ['label', view.label],
    ['submitted by', view.submittedBy],
    ['workflowId', view.workflowId],
    ['state', `${view.state} (${batchStateWords(view)})`],
    ['items', view.counts.items],
    ['invalid rows', view.counts.invalid || undefined],
    ['progress', groupLine(view.counts)],
    ['tenant', view.tenant],
    ['retry window', `${view.retryWindowSeconds} s`],
    ['created', view.createdAt],
    ['updated', view.updatedAt],
    [
      'resubmitted',
      resubmission
        ? `round ${resubmission.round} (${resubmission.outcomes.join(', ')}): ${resubmission.resubmitted} item(s)${resubmission.done ? '' : ', under way'}`
        : undefined,
    ],
    ['open until', view.closesAt],
    ['closed', view.closedAt],
  ]);
}

/** Where to follow a batch: the CLI, the intake API when one is known, Temporal UI. */
export function followHints(batchId: string, intakeUrl?: string): string[] {
  return [
    `  npx eligibility batches status ${batchId} --wait`,
    ...(intakeUrl ? [`  GET ${intakeUrl}/batches/${batchId} (results: …/results)`] : []),
    `  Temporal UI: BatchId = "${batchId}"`,
  ];
}
