/**
 * Workflow ids of a batch (docs/integrating/batches.md). A batch id never holds a `.` (src/batches/limits.ts), so
 * `batch-<id>.` is an unambiguous prefix and the ids below can never collide with each other or with another batch's.
 */
import { verificationWorkflowId } from '../shared/ids.js';

export const batchWorkflowId = (batchId: string) => `batch-${batchId}`;
export const batchPageWorkflowId = (batchId: string, page: number) => `batch-${batchId}.page-${page}`;

/**
 * The verification of one row, derived, so that submitting or resubmitting again never starts it twice. A row with a
 * caller id is `verification-<caller id>` on its first attempt, the id a single intake of that caller id would get:
 * a caller id is one verification whichever way it arrives. A row without one is named by its batch and row. A
 * resubmission (round ≥ 1, a counter the batch keeps durably) names the round, so each round starts a row once.
 */
export function batchItemWorkflowId(batchId: string, row: number, callerId: string | undefined, round: number): string {
  const item = callerId === undefined ? `row-${row}` : `id-${callerId}`;
  if (round > 0) return `batch-${batchId}.r${round}.${item}`;
  return callerId === undefined ? `batch-${batchId}.${item}` : verificationWorkflowId(callerId);
}
