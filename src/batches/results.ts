import { ApplicationFailure, WorkflowFailedError, type Client, type WorkflowExecutionInfo } from '@temporalio/client';
import {
  type BatchPageInput,
  type BatchPageResult,
  batchPageWorkflowId,
  type BatchRowProblem,
} from '../../workflows/batch/batch.js';
import { failureDetails } from '../../workflows/shared/failure-details.js';
import { DiscoveryId } from '../../workflows/shared/search-attributes.js';
import type { LastError, VerificationResult } from '../../workflows/verification/verification.js';
import { latestAttempts } from './items.js';
import { inLanes } from './lanes.js';
import { startInput } from './start-input.js';
import type { PayerNames } from '../payers/payer-names.js';

/**
 * One row of a batch's results. `outcome` is how its item ended (`completed`, `failed`, `no-coverage`, …), its stage
 * while it runs, or what kept it from being an item: `invalid`, `duplicate` (its caller id had a verification
 * already: `workflowId` names it), `not-started`, `skipped` (the batch was cancelled first), `queued`.
 * The only patient datum is `memberId`: the member id a discovery found for the caller's own patient.
 */
export interface BatchResultRow {
  row: number;
  callerId?: string;
  workflowId?: string;
  /** 0 for the first attempt, n for the n-th resubmission. */
  attempt?: number;
  outcome: string;
  verificationId?: string;
  discoveryId?: string;
  discoveryStatus?: string;
  discoverySuccessful?: boolean;
  payerId?: string;
  payerName?: string;
  memberId?: string;
  /** For a failure: its type (`InvalidRequest`, `NotFound`, …) and the field at fault. */
  errorType?: string;
  errorField?: string;
  /** Why a row was refused (`invalid`): what was expected, never the value sent. */
  errorMessage?: string;
}

export const RESULT_COLUMNS = [
  'row',
  'callerId',
  'workflowId',
  'attempt',
  'outcome',
  'verificationId',
  'discoveryId',
  'discoveryStatus',
  'discoverySuccessful',
  'payerId',
  'payerName',
  'memberId',
  'errorType',
  'errorField',
  'errorMessage',
] as const satisfies readonly (keyof BatchResultRow)[];

/** The columns that hold patient data (the audit trail names them when results are read). */
const RESULT_PATIENT_FIELDS = ['memberId'] as const satisfies readonly (keyof BatchResultRow)[];

/** The names of the patient-data columns these rows disclose. */
export const resultPatientFields = (rows: readonly BatchResultRow[]): string[] =>
  RESULT_PATIENT_FIELDS.filter((name) => rows.some((row) => row[name] !== undefined));

/**
 * The failure a failed verification ended with, and the result object it carries
 * (workflows/verification/verification-workflow.ts).
 */
function failureOf(err: unknown): { result?: VerificationResult; error: LastError } | undefined {
  if (!(err instanceof WorkflowFailedError) || !(err.cause instanceof ApplicationFailure)) return undefined;
  const { param } = failureDetails(err.cause);
  const { result } = (err.cause.details?.[0] ?? {}) as { result?: VerificationResult };
  const error: LastError = {
    type: err.cause.type ?? 'Error',
    message: err.cause.message,
    ...(param ? { param } : {}),
  };
  return { ...(result ? { result } : {}), error };
}

/** Reads a closed item's result (the close event of its history: not a billed action) for what visibility lacks. */
async function details(client: Client, info: WorkflowExecutionInfo): Promise<Partial<BatchResultRow>> {
  let result: VerificationResult | undefined;
  let error: LastError | undefined;
  try {
    result = await client.workflow.getHandle<() => Promise<VerificationResult>>(info.workflowId, info.runId).result();
    error = result.lastError;
  } catch (err) {
    const failure = failureOf(err);
    if (!failure) return {}; // terminated, timed out or cancelled by Temporal: nothing more to read
    ({ result, error } = failure);
  }
  const discovery = result?.discovery;
  return {
    ...(result?.verificationId ? { verificationId: result.verificationId } : {}),
    ...(discovery
      ? {
          discoveryStatus: discovery.status,
          discoverySuccessful: discovery.successful,
          ...(discovery.payerId ? { payerId: discovery.payerId } : {}),
          ...(discovery.payerName ? { payerName: discovery.payerName } : {}),
          ...(discovery.memberId ? { memberId: discovery.memberId } : {}),
        }
      : {}),
    ...(error ? { errorType: error.type, ...(error.param ? { errorField: error.param } : {}) } : {}),
  };
}

/** A refused row: the caller id it gave (when well-formed), the field at fault and why. */
const invalidRow = (r: BatchRowProblem): BatchResultRow => ({
  row: r.row,
  ...(r.callerId !== undefined ? { callerId: r.callerId } : {}),
  outcome: 'invalid',
  errorType: 'InvalidRequest',
  errorField: r.param,
  errorMessage: r.message,
});

/** A page's rows that are not items (invalid, duplicate, not started, skipped), and its queued rows while it runs. */
async function pageRows(client: Client, batchId: string, page: number): Promise<BatchResultRow[]> {
  const handle = client.workflow.getHandle(batchPageWorkflowId(batchId, page));
  const described = await handle.describe();
  if (described.status.name === 'COMPLETED') {
    const result = (await handle.result()) as BatchPageResult;
    return [
      ...result.invalid.map(invalidRow),
      ...result.duplicates.map((r) => ({ row: r.row, workflowId: r.workflowId, outcome: 'duplicate' })),
      ...result.notStarted.map((r) => ({ row: r.row, outcome: 'not-started', errorField: r.param })),
      ...result.skipped.map((row) => ({ row, outcome: 'skipped' })),
    ];
  }
  const input = await startInput<BatchPageInput>(client, described.workflowId, described.runId);
  return [
    ...input.invalid.map(invalidRow),
    ...input.items.map((r) => ({ row: r.row, ...(r.request.id ? { callerId: r.request.id } : {}), outcome: 'queued' })),
  ];
}

/** Where results find payers' names (src/payers): without it, a row names its payer only when a discovery did. */
export type PayerNameSource = Pick<PayerNames, 'names' | 'nameNow'>;

/**
 * Every row of a batch, in row order: each item by its latest attempt (what visibility shows, plus what its closed
 * workflow's result holds: discovery, failure field), and the rows that are not items from the pages. Meant for a
 * batch that has settled; a row still running shows its stage. A row's payer is its discovery's, else the one it was
 * verified with, named from `payers` when the discovery did not name it.
 */
export async function batchResults(
  client: Client,
  batchId: string,
  pages: number,
  payers?: PayerNameSource,
): Promise<BatchResultRow[]> {
  const rows = new Map<number, BatchResultRow>();
  const pageNumbers = Array.from({ length: pages }, (_, i) => i + 1);
  for (const list of await inLanes(pageNumbers, 4, (page) => pageRows(client, batchId, page))) {
    for (const row of list) rows.set(row.row, row);
  }
  const latest = await latestAttempts(client, batchId);
  const read = await inLanes(latest, 16, async ({ view, info }) => {
    const needsResult =
      view.outcome !== undefined &&
      (view.outcome !== 'completed' || info.typedSearchAttributes.get(DiscoveryId) !== undefined);
    return needsResult ? details(client, info) : {};
  });
  latest.forEach(({ view }, i) => {
    rows.set(view.row, {
      row: view.row,
      ...(view.callerId ? { callerId: view.callerId } : {}),
      workflowId: view.workflowId,
      attempt: view.round,
      outcome: view.outcome ?? view.stage ?? 'running',
      ...(view.verificationId ? { verificationId: view.verificationId } : {}),
      ...(view.discoveryId ? { discoveryId: view.discoveryId } : {}),
      ...(view.payerId ? { payerId: view.payerId } : {}),
      ...read[i],
    });
  });
  const sorted = [...rows.values()].sort((a, b) => a.row - b.row);
  if (!payers) return sorted;
  const names = await payers.names(sorted.filter((row) => !row.payerName).map((row) => row.payerId));
  return sorted.map((row) => {
    const name = row.payerId && !row.payerName ? names.get(row.payerId)?.name : undefined;
    return name ? { ...row, payerName: name } : row;
  });
}
