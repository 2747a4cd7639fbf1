import path from 'node:path';
import { plural, table } from '../text-format.js';
import type { BatchReport } from './run-batch.js';
import type { StartOutcome } from './start-requests.js';

const clip = (text: string, max = 100) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Counts, then one line per row: its row and line, what happened, and its workflow id or the field at fault. */
export function batchSummary(report: BatchReport): string {
  const count = (status: StartOutcome['status']) => report.outcomes.filter((o) => o.status === status).length;
  const rows = [
    ...report.invalid.map((r) => [r.row, r.line, 'invalid', clip(`${r.param}: ${r.message}`)] as const),
    ...report.outcomes.map(
      (o) =>
        [
          o.row,
          o.line,
          o.status === 'failed' ? 'failed to start' : o.status,
          o.status === 'failed' ? clip(o.message) : o.workflowId,
        ] as const,
    ),
  ].sort((a, b) => a[0] - b[0]);
  return [
    `${path.basename(report.file)}: ${plural(report.total, 'row')}`,
    table(
      ['started', 'duplicate', 'invalid', 'failed to start'],
      [[count('started'), count('duplicate'), report.invalid.length, count('failed')]],
    ),
    '',
    table(['row', 'line', 'result', 'workflowId / field'], rows),
  ].join('\n');
}

/** Rows that did not start: invalid ones and those whose start failed. */
export function notStarted(report: BatchReport): number {
  return report.invalid.length + report.outcomes.filter((o) => o.status === 'failed').length;
}
