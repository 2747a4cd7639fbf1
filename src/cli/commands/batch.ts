import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import { FLAT_COLUMNS } from '../../intake-files/flat-request.js';
import { readRequestsFile } from '../../intake-files/read-requests.js';
import { SANDBOX_DISCOVERY } from '../../sandbox/discovery-shortcut.js';
import type { StartOutcome, StartRequestsOptions } from '../../batch/start-requests.js';
import { validateRows, type InvalidRow, type ValidatedRows } from '../../intake-files/validate-rows.js';
import { CliError, positiveInt, withClient, type CliContext } from '../context.js';
import { plural, table } from '../../text-format.js';
import { batchProgress } from '../../batch/progress.js';

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
  if (rows.length === 0) throw new CliError(`${path.basename(file)} holds no requests`, 2);
  const validated = validateRows(rows);
  if (validated.sandboxRows.length > 0 && !options.sandbox) {
    // Rows without an id would be started again by a second run, so nothing starts until the whole file can.
    const which = validated.sandboxRows.map((r) => r.row).join(', ');
    throw new CliError(
      `discoveryId ${SANDBOX_DISCOVERY} (row${validated.sandboxRows.length > 1 ? 's' : ''} ${which}) asks for a ` +
        'sandbox discovery: give --sandbox-url <url> of a sandbox to create it in; nothing was started',
      2,
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
  const { startRequests } = await import('../../batch/start-requests.js');
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

export function notStarted(report: BatchReport): number {
  return report.invalid.length + report.outcomes.filter((o) => o.status === 'failed').length;
}

export function registerBatch(program: Command, ctx: CliContext): void {
  program
    .command('batch')
    .description('validate a CSV or JSONL file of patients, then start a verification for every valid row')
    .argument('<file>', 'a .csv file (header row of the columns below) or a .jsonl file (one request per line)')
    .option('--concurrency <n>', 'starts in flight at once', positiveInt, 8)
    .option('--sandbox-url <url>', `sandbox where discoveries of ${SANDBOX_DISCOVERY} rows are created`)
    .option(
      '--grace-seconds <n>',
      'how long a verification without pending runs stays open (default 24 h)',
      positiveInt,
    )
    .option('--dry-run', 'validate only: report invalid rows, start nothing')
    .addHelpText(
      'after',
      `
CSV columns (any subset, in any order; an empty cell is an absent field):
  ${FLAT_COLUMNS.join(', ')}
version is v1 or v2 (empty: v2, or v1 when patientId is given). discoveryId ${SANDBOX_DISCOVERY} creates a sandbox
discovery for the row's patient first (needs --sandbox-url).

Every row is checked before anything starts. Invalid rows are reported by row number (1-based data row), file line
and field, never with their values, and are not started. While Temporal is unavailable, starts are retried with
backoff for up to a minute (progress counts the rows waiting). Exit code 2 when any row was invalid or failed to
start.

Examples:
  $ eligibility batch examples/intake.csv --sandbox-url http://127.0.0.1:4010
  $ eligibility batch requests.jsonl --concurrency 16
  $ eligibility batch examples/intake.csv --dry-run`,
    )
    .action(
      async (
        file: string,
        options: { concurrency: number; sandboxUrl?: string; graceSeconds?: number; dryRun?: boolean },
      ) => {
        const validated = await readBatch(file, {
          sandbox: options.dryRun === true || options.sandboxUrl !== undefined,
        });
        const total = validated.valid.length + validated.invalid.length;
        let report: BatchReport = { file, total, invalid: validated.invalid, outcomes: [] };
        if (!options.dryRun && validated.valid.length > 0) {
          report = await withClient(ctx, (client, config) =>
            runBatch(client, file, validated, {
              taskQueue: config.temporal.taskQueue,
              concurrency: options.concurrency,
              ...(options.sandboxUrl ? { sandboxUrl: options.sandboxUrl } : {}),
              ...(options.graceSeconds ? { timing: { graceSeconds: options.graceSeconds } } : {}),
              tty: process.stdout.isTTY === true,
            }),
          );
        }
        console.log(batchSummary(report));
        if (options.dryRun) console.log(`dry run: ${plural(validated.valid.length, 'valid row')}, nothing was started`);
        const failed = notStarted(report);
        if (options.dryRun && failed > 0) throw new CliError(`${plural(failed, 'row')} invalid`, 2);
        if (failed > 0) {
          throw new CliError(
            `${plural(failed, 'row')} not started (${report.invalid.length} invalid, ${failed - report.invalid.length} failed to start)`,
            2,
          );
        }
      },
    );
}
