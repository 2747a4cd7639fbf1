import type { Command } from 'commander';
import type { BatchReport } from '../../batch/run-batch.js';
import { FLAT_COLUMNS } from '../../intake-files/flat-request.js';
import { SANDBOX_DISCOVERY } from '../../sandbox/discovery-shortcut.js';
import { plural } from '../../text-format.js';
import { CliError, positiveInt, withClient, type CliContext } from '../context.js';

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
        const { readBatch, runBatch } = await import('../../batch/run-batch.js');
        const { batchSummary, notStarted } = await import('../../batch/summary.js');
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
