import type { Command } from 'commander';
import { BatchIdSchema, BatchLabelSchema, RetryWindowSchema, TenantSchema } from '../../../src/batches/limits.js';
import { DEFAULT_RETRY_WINDOW_SECONDS } from '../../../workflows/shared/activity-options.js';
import { FLAT_COLUMNS } from '../../../src/intake-files/flat-request.js';
import { SANDBOX_DISCOVERY } from '../../../src/intake-files/sandbox-discovery.js';
import { CliError, positiveInt, withClient, type CliContext } from '../context.js';
import { parsedWith } from '../option-parsers.js';
import { plural } from '../../../src/text-format.js';

interface BatchOptions {
  batchId?: string;
  label?: string;
  tenant?: string;
  retryWindow?: number;
  allOrNothing?: boolean;
  wait?: boolean;
  sandboxUrl?: string;
  graceSeconds?: number;
  dryRun?: boolean;
}

export function registerBatch(program: Command, ctx: CliContext): void {
  program
    .command('batch')
    .description('validate a CSV or JSONL file of patients and submit its valid rows as one batch')
    .argument('<file>', 'a .csv file (header row of the columns below) or a .jsonl file (one request per line)')
    .option(
      '--batch-id <id>',
      'the batch id (default: a digest of the file, so the same file is the same batch)',
      parsedWith(BatchIdSchema),
    )
    .option(
      '--tenant <id>',
      'the submitter’s tenant (a provider group or clinic id; never patient data)',
      parsedWith(TenantSchema),
    )
    .option(
      '--retry-window <duration>',
      'how long failing service calls are retried, e.g. 8h (default 24h)',
      parsedWith(RetryWindowSchema),
    )
    .option('--label <text>', 'what people call the batch (default: the file’s name)', parsedWith(BatchLabelSchema))
    .option('--all-or-nothing', 'submit nothing when any row is invalid')
    .option('--wait', 'follow the batch with a progress bar until nothing is on its way, then print its outcomes')
    .option('--sandbox-url <url>', `sandbox where discoveries of ${SANDBOX_DISCOVERY} rows are created`)
    .option(
      '--grace-seconds <n>',
      'how long a verification without pending runs stays open (default 24 h)',
      positiveInt,
    )
    .option('--dry-run', 'validate only: report invalid rows, submit nothing')
    .addHelpText(
      'after',
      `
CSV columns (any subset, in any order; an empty cell is an absent field):
  ${FLAT_COLUMNS.join(', ')}
version is v1 or v2 (empty: v2, or v1 when patientId is given). discoveryId ${SANDBOX_DISCOVERY} creates a sandbox
discovery for the row's patient first (needs --sandbox-url).

Every row is checked before anything is submitted; invalid rows are reported by row number (1-based data row), file
line and field, never with their values. The valid rows become one batch, a durable workflow in Temporal that starts
them itself: once the batch id is printed, stopping this command changes nothing. A row's workflow id is derived from
its caller id (or the batch id and its row), and the same file gives the same batch id, so submitting it again starts
nothing twice. Exit code 2 when any row was invalid.

Examples:
  $ eligibility batch examples/intake.csv --sandbox-url http://127.0.0.1:4010 --wait
  $ eligibility batch requests.jsonl --tenant clinic-42 --retry-window 8h
  $ eligibility batch examples/intake.csv --dry-run`,
    )
    .action(async (file: string, options: BatchOptions) => {
      const { fileSummary, readBatchFile, submitFileBatch } = await import('../../../src/batches/file-batch.js');
      const fileBatch = await readBatchFile(file, {
        sandbox: options.dryRun === true || options.sandboxUrl !== undefined,
      });
      console.log(fileSummary(fileBatch));
      const { valid, invalid } = fileBatch.validated;
      if (options.dryRun) {
        console.log(`dry run: ${plural(valid.length, 'valid row')}, nothing was submitted`);
        if (invalid.length > 0) throw new CliError(`${plural(invalid.length, 'row')} invalid`, 2);
        return;
      }
      if (valid.length === 0) throw new CliError('no valid row: nothing was submitted', 2);
      if (options.allOrNothing && invalid.length > 0) {
        throw new CliError(`${plural(invalid.length, 'row')} invalid (--all-or-nothing): nothing was submitted`, 2);
      }
      const { tenantToStart, visibleBatch } = await import('../person.js');
      const tenant = await tenantToStart(ctx, options.tenant, { action: 'batch.submit', what: 'submit a batch' });
      await withClient(ctx, async (client, config) => {
        const { followBatch } = await import('../batch-follow.js');
        const { followHints, outcomeTable } = await import('../../../src/batches/batch-view.js');
        const submitted = await submitFileBatch(client, fileBatch, {
          taskQueue: config.temporal.taskQueue,
          ...(options.batchId ? { batchId: options.batchId } : {}),
          ...(options.sandboxUrl ? { sandboxUrl: options.sandboxUrl } : {}),
          about: { ...(options.label ? { label: options.label } : {}), submittedBy: ctx.identity() },
          options: {
            ...(tenant ? { tenant } : {}),
            retryWindowSeconds: options.retryWindow ?? DEFAULT_RETRY_WINDOW_SECONDS,
            ...(options.graceSeconds ? { timing: { graceSeconds: options.graceSeconds } } : {}),
          },
          log: (line) => console.log(line),
        });
        console.log(
          submitted.duplicate
            ? `\nBatch ${submitted.batchId} exists already (submitted before): nothing new was started.`
            : `\nBatch ${submitted.batchId}: ${plural(submitted.items, 'item')} submitted; the batch starts them.`,
        );
        console.log(['Follow it:', ...followHints(submitted.batchId)].join('\n'));
        if (options.wait) {
          // A batch submitted before is followed only by one who may see it.
          if (submitted.duplicate) await visibleBatch(ctx, client, submitted.batchId, 'batch.read');
          const view = await followBatch(client, submitted.batchId, { tty: process.stdout.isTTY === true });
          console.log(`\nBatch ${view.batchId}: ${view.state}\n${outcomeTable(view.counts)}`);
        }
      });
      if (invalid.length > 0) throw new CliError(`${plural(invalid.length, 'row')} invalid, not submitted`, 2);
    });
}
