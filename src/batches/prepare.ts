import { createHash } from 'node:crypto';
import { CallerId, isWellFormedText, validateIntake } from '../contract/index.js';
import {
  SANDBOX_DISCOVERY,
  sandboxDiscoveryProblem,
  wantsSandboxDiscovery,
} from '../intake-files/sandbox-discovery.js';
import type { BatchItemOptions, BatchRowProblem, BatchRowRequest } from '../../workflows/batch/batch.js';
import { PAGE_SIZE } from './limits.js';

/** One row as submitted: a request to validate, or the problem that kept it from being read. */
export interface SubmittedRow {
  row: number;
  line?: number;
  request?: unknown;
  problem?: { param: string; message: string };
}

export interface ValidatedSubmission {
  valid: (BatchRowRequest & { line?: number })[];
  invalid: BatchRowProblem[];
  /** Rows of `valid` whose discovery is to be created in a sandbox first (`@sandbox`). */
  sandboxRows: number[];
}

/** A refused row's caller id, when it is one the intake would take (never any other value of the row). */
function wellFormedCallerId(request: unknown): string | undefined {
  const id = request !== null && typeof request === 'object' ? (request as { id?: unknown }).id : undefined;
  return typeof id === 'string' && CallerId.safeParse(id).success && isWellFormedText(id) ? id : undefined;
}

/**
 * Validates every row before anything starts, with the contract (`validateIntake`): a refused row is named by row,
 * line and field, never by value. A caller id given twice would be one verification for two rows, so the later row is
 * refused. `@sandbox` discoveries are refused where no sandbox can create them (the intake API).
 */
export function validateSubmission(rows: readonly SubmittedRow[], options: { sandbox: boolean }): ValidatedSubmission {
  const result: ValidatedSubmission = { valid: [], invalid: [], sandboxRows: [] };
  const callerRows = new Map<string, number>();
  for (const { row, line, request, problem } of rows) {
    const at = { row, ...(line === undefined ? {} : { line }) };
    const callerId = wellFormedCallerId(request);
    const refuse = (param: string, message: string) =>
      void result.invalid.push({ ...at, param, message, ...(callerId !== undefined ? { callerId } : {}) });
    if (problem) {
      refuse(problem.param, problem.message);
      continue;
    }
    const validation = validateIntake(request);
    if (!validation.ok) {
      refuse(validation.param, validation.message);
      continue;
    }
    const intake = validation.intake;
    const sandboxProblem = sandboxDiscoveryProblem(intake);
    if (sandboxProblem) {
      refuse(sandboxProblem.param, sandboxProblem.message);
      continue;
    }
    if (wantsSandboxDiscovery(intake) && !options.sandbox) {
      refuse(
        'discoveryId',
        `${SANDBOX_DISCOVERY} asks for a sandbox discovery, which only the CLI makes (--sandbox-url)`,
      );
      continue;
    }
    const earlier = intake.id === undefined ? undefined : callerRows.get(intake.id);
    if (earlier !== undefined) {
      refuse('id', `the same caller id as row ${earlier}`);
      continue;
    }
    if (intake.id !== undefined) callerRows.set(intake.id, row);
    result.valid.push({ ...at, request: intake });
    if (wantsSandboxDiscovery(intake)) result.sandboxRows.push(row);
  }
  return result;
}

/**
 * The batch id of a submission that names none: a digest of what it asks for (its valid rows and the options its
 * items carry), so submitting the same file or body again, after a lost answer or by mistake, is the same batch and
 * starts nothing new. Submitting the same patients again on purpose takes a new batch id.
 */
export function contentBatchId(valid: readonly BatchRowRequest[], options: Omit<BatchItemOptions, 'timing'>): string {
  const digest = createHash('sha256');
  digest.update(JSON.stringify({ tenant: options.tenant ?? null, retryWindow: options.retryWindowSeconds }));
  for (const { row, request } of valid) digest.update(`\n${row}\t${JSON.stringify(request)}`);
  return digest.digest('hex').slice(0, 20);
}

export interface Page {
  items: BatchRowRequest[];
  invalid: BatchRowProblem[];
}

/** Consecutive rows, `PAGE_SIZE` at a time; a page keeps the refused rows of its range for the batch's results. */
export function paginate(submission: Pick<ValidatedSubmission, 'valid' | 'invalid'>, pageSize = PAGE_SIZE): Page[] {
  const rows = [
    ...submission.valid.map((v) => ({ row: v.row, valid: { row: v.row, request: v.request } })),
    ...submission.invalid.map((invalid) => ({ row: invalid.row, invalid })),
  ].sort((a, b) => a.row - b.row);
  const pages: Page[] = [];
  for (let at = 0; at < rows.length; at += pageSize) {
    const slice = rows.slice(at, at + pageSize);
    pages.push({
      items: slice.flatMap((r) => ('valid' in r ? [r.valid] : [])),
      invalid: slice.flatMap((r) => ('invalid' in r ? [r.invalid] : [])),
    });
  }
  return pages;
}
