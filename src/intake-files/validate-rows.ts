import { validateIntake, type VerificationIntake } from '../contract/index.js';
import type { IntakeRow } from './read-requests.js';
import { sandboxDiscoveryProblem, wantsSandboxDiscovery } from './sandbox-discovery.js';

export interface ValidRow {
  row: number;
  line: number;
  request: VerificationIntake;
}

export interface InvalidRow {
  row: number;
  line: number;
  param: string;
  message: string;
}

export interface ValidatedRows {
  valid: ValidRow[];
  invalid: InvalidRow[];
  /** Valid rows whose `discoveryId` is `@sandbox`: they need a sandbox to create their discovery in. */
  sandboxRows: ValidRow[];
}

/**
 * Checks every row with the contract before anything starts, so a bad row is reported, by row and field, without a
 * half-started file. zod's messages state what was expected, never the value received (patient data).
 */
export function validateRows(rows: readonly IntakeRow[]): ValidatedRows {
  const result: ValidatedRows = { valid: [], invalid: [], sandboxRows: [] };
  for (const { row, line, request, problem } of rows) {
    if (problem) {
      result.invalid.push({ row, line, ...problem });
      continue;
    }
    const validation = validateIntake(request);
    if (!validation.ok) {
      result.invalid.push({ row, line, param: validation.param, message: validation.message });
      continue;
    }
    const sandboxProblem = sandboxDiscoveryProblem(validation.intake);
    if (sandboxProblem) {
      result.invalid.push({ row, line, ...sandboxProblem });
      continue;
    }
    const valid = { row, line, request: validation.intake };
    result.valid.push(valid);
    if (wantsSandboxDiscovery(validation.intake)) result.sandboxRows.push(valid);
  }
  return result;
}
