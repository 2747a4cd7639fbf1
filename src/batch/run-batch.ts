import path from 'node:path';
import type { Client } from '@temporalio/client';
import { IntakeFileError, readRequestsFile } from '../intake-files/read-requests.js';
import { validateRows, type InvalidRow, type ValidatedRows } from '../intake-files/validate-rows.js';
import { SANDBOX_DISCOVERY } from '../sandbox/discovery-shortcut.js';
import { batchProgress } from './progress.js';
import type { StartOutcome, StartRequestsOptions } from './start-requests.js';

/**
 * A batch: an intake file read and validated as a whole, then its valid rows started. Shared by `eligibility batch`
 * and the example run of `eligibility dev`, so both report a file the same way.
 */

export interface BatchReport {
  file: string;
  /** Rows in the file. */
  total: number;
  invalid: InvalidRow[];
  outcomes: StartOutcome[];
}

/** Reads and validates a whole file before anything starts; `@sandbox` rows stop it here unless a sandbox is given. */
export async function readBatch(file: string, options: { sandbox: boolean }): Promise<ValidatedRows> {
  const rows = await readRequestsFile(file);
  if (rows.length === 0) throw new IntakeFileError(`${path.basename(file)} holds no requests`);
  const validated = validateRows(rows);
  if (validated.sandboxRows.length > 0 && !options.sandbox) {
    // Rows without an id would be started again by a second run, so nothing starts until the whole file can.
    const which = validated.sandboxRows.map((r) => r.row).join(', ');
    throw new IntakeFileError(
      `discoveryId ${SANDBOX_DISCOVERY} (row${validated.sandboxRows.length > 1 ? 's' : ''} ${which}) asks for a ` +
        'sandbox discovery: give --sandbox-url <url> of a sandbox to create it in; nothing was started',
    );
  }
  return validated;
}

/** Starts the valid rows with bounded concurrency, showing progress; never throws for one row's failure. */
export async function runBatch(
  client: Client,
  file: string,
  validated: ValidatedRows,
  options: Omit<StartRequestsOptions, 'onOutcome' | 'onRetry'> & { tty: boolean },
): Promise<BatchReport> {
  const { startRequests } = await import('./start-requests.js');
  const progress = batchProgress(validated.valid.length, { tty: options.tty });
  try {
    const outcomes = await startRequests(client, validated.valid, {
      ...options,
      onOutcome: progress.record,
      onRetry: progress.retry,
    });
    return { file, total: validated.valid.length + validated.invalid.length, invalid: validated.invalid, outcomes };
  } finally {
    progress.stop();
  }
}
