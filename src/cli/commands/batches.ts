import fs from 'node:fs/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { BatchIdSchema, TenantSchema } from '../../batches/limits.js';
import {
  ITEM_OUTCOMES,
  RESUBMITTABLE_OUTCOMES,
  RUNNING_STAGES,
  type ItemOutcome,
  type ResubmittableOutcome,
  type RunningStage,
} from '../../../workflows/batch-types.js';
import { CliError, positiveInt, withClient, type CliContext } from '../context.js';
import { plural, table } from '../format.js';
import { parsedWith } from './batch.js';

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): T => {
    if (!(values as readonly string[]).includes(value))
      throw new InvalidArgumentError(`expected one of ${values.join(', ')}.`);
    return value as T;
  };

const outcomeList = (value: string): ResubmittableOutcome[] =>
  value.split(',').map((v) => oneOf(RESUBMITTABLE_OUTCOMES)(v.trim()));

const batchIdArgument = parsedWith(BatchIdSchema);

/** An update the batch refused (cancelled, a bad outcome) or could not take (it has closed), as one line. */
async function refusal(err: unknown, batchId: string, describe: () => Promise<{ state: string } | undefined>) {
  const { ApplicationFailure, WorkflowNotFoundError, WorkflowUpdateFailedError } = await import('@temporalio/client');
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    return new CliError(`batch ${batchId}: ${err.cause.message}`);
  }
  if (err instanceof WorkflowNotFoundError) {
    const view = await describe();
    return new CliError(view ? `batch ${batchId} has closed (${view.state})` : `no batch ${batchId}`);
  }
  return err;
}

export function registerBatches(program: Command, ctx: CliContext): void {
  const batches = program
    .command('batches')
    .description('follow and act on batches: list, status, items, results, resubmit, cancel')
    .addHelpText(
      'after',
      `
A batch is a durable workflow (batch-<id>) that starts its items itself; these commands read its memo and visibility
(no query to any workflow, no patient data) or send it an update. Submit one with \`eligibility batch <file>\` or
POST /batches.`,
    );

  batches
    .command('list')
    .description('batches, newest first')
    .option('--tenant <id>', 'only this tenant’s batches', parsedWith(TenantSchema))
    .option('--limit <n>', 'at most this many', positiveInt, 20)
    .action(async (options: { tenant?: string; limit: number }) => {
      const { listBatches } = await import('../../batches/describe.js');
      const { groupLine } = await import('../batch-view.js');
      await withClient(ctx, async (client) => {
        const { batches: found } = await listBatches(client, {
          pageSize: options.limit,
          ...(options.tenant ? { tenant: options.tenant } : {}),
        });
        if (found.length === 0) return console.log('no batches');
        console.log(
          table(
            ['batchId', 'state', 'items', 'progress', 'created'],
            found.map((b) => [b.batchId, b.state, b.counts.items, groupLine(b.counts), b.createdAt]),
          ),
        );
      });
    });

  batches
    .command('status')
    .description('a batch’s state, counts by outcome, and times')
    .argument('<batchId>', 'the batch id', batchIdArgument)
    .option('--wait', 'follow it with a progress bar until nothing is on its way')
    .option('--json', 'print it as JSON')
    .action(async (batchId: string, options: { wait?: boolean; json?: boolean }) => {
      const { describeBatch } = await import('../../batches/describe.js');
      const { followBatch } = await import('../batch-follow.js');
      const { batchFields, outcomeTable } = await import('../batch-view.js');
      await withClient(ctx, async (client) => {
        const view = options.wait
          ? await followBatch(client, batchId, { tty: process.stdout.isTTY === true && !options.json })
          : await describeBatch(client, batchId);
        if (!view) throw new CliError(`no batch ${batchId}`);
        if (options.json) return console.log(JSON.stringify(view, null, 2));
        console.log(`${batchFields(view)}\n\n${outcomeTable(view.counts)}`);
      });
    });

  batches
    .command('items')
    .description('a batch’s items, newest first: row, workflow id, round, stage or outcome, verification id')
    .argument('<batchId>', 'the batch id', batchIdArgument)
    .option('--stage <stage>', `only items running at: ${RUNNING_STAGES.join(', ')}`, oneOf(RUNNING_STAGES))
    .option('--outcome <outcome>', `only items that ended: ${ITEM_OUTCOMES.join(', ')}`, oneOf(ITEM_OUTCOMES))
    .option('--limit <n>', 'page size', positiveInt, 50)
    .option('--page-token <token>', 'the next page (printed after a full page)')
    .option('--all-attempts', 'include attempts a resubmission replaced')
    .action(
      async (
        batchId: string,
        options: {
          stage?: RunningStage;
          outcome?: ItemOutcome;
          limit: number;
          pageToken?: string;
          allAttempts?: boolean;
        },
      ) => {
        if (options.stage && options.outcome) throw new CliError('give --stage or --outcome, not both', 2);
        const { describeBatch } = await import('../../batches/describe.js');
        const { listBatchItems } = await import('../../batches/items.js');
        await withClient(ctx, async (client) => {
          const view = await describeBatch(client, batchId);
          if (!view) throw new CliError(`no batch ${batchId}`);
          const page = await listBatchItems(client, batchId, {
            pageSize: options.limit,
            rounds: view.round,
            ...(options.stage ? { stage: options.stage } : {}),
            ...(options.outcome ? { outcome: options.outcome } : {}),
            ...(options.pageToken ? { pageToken: options.pageToken } : {}),
            ...(options.allAttempts ? { superseded: true } : {}),
          });
          if (page.items.length === 0) console.log('no items');
          else {
            console.log(
              table(
                ['row', 'workflowId', 'round', 'stage / outcome', 'verificationId'],
                page.items.map((i) => [
                  i.row,
                  i.workflowId,
                  `${i.round}${i.superseded ? ' (replaced)' : ''}`,
                  i.outcome ?? i.stage,
                  i.verificationId,
                ]),
              ),
            );
          }
          if (page.nextPageToken) console.log(`next page: --page-token ${page.nextPageToken}`);
        });
      },
    );

  batches
    .command('results')
    .description('every row’s result as CSV (or JSONL): outcome, verification id, discovery, the failing field')
    .argument('<batchId>', 'the batch id', batchIdArgument)
    .option('--out <file>', 'write to this file (readable by you only: it may hold member ids), not stdout')
    .option('--format <format>', 'csv or jsonl (default: from --out’s extension, else csv)', oneOf(['csv', 'jsonl']))
    .addHelpText(
      'after',
      `
One row per row of the submission, in row order: each item by its latest attempt, and the rows that were not items
(invalid, duplicate, not started, skipped). The one patient datum is memberId, the member id a discovery found.

Example:
  $ eligibility batches results 3f9c0a1b2c3d4e5f6a7b --out results.csv`,
    )
    .action(async (batchId: string, options: { out?: string; format?: 'csv' | 'jsonl' }) => {
      const { describeBatch } = await import('../../batches/describe.js');
      const { batchResults } = await import('../../batches/results.js');
      const { resultsCsv, resultsJsonl } = await import('../../batches/results-format.js');
      const format = options.format ?? (options.out?.endsWith('.jsonl') ? 'jsonl' : 'csv');
      await withClient(ctx, async (client) => {
        const view = await describeBatch(client, batchId);
        if (!view) throw new CliError(`no batch ${batchId}`);
        const rows = await batchResults(client, batchId, view.pages);
        const text = format === 'csv' ? resultsCsv(rows) : resultsJsonl(rows);
        if (!options.out) return void process.stdout.write(text);
        await fs.writeFile(options.out, text, { mode: 0o600 });
        console.log(`${plural(rows.length, 'row')} written to ${options.out} (batch ${view.state})`);
      });
    });

  batches
    .command('resubmit')
    .description('start again the items whose latest attempt failed (or ended as given)')
    .argument('<batchId>', 'the batch id', batchIdArgument)
    .option('--outcomes <list>', `comma-separated: ${RESUBMITTABLE_OUTCOMES.join(', ')}`, outcomeList, ['failed'])
    .option('--idempotency-key <key>', 'a repeated command with the same key is the same resubmission')
    .addHelpText(
      'after',
      `
Each resubmission is a round the batch counts durably; an item's new attempt is named by its round, so a repeated
command (or a second terminal) starts nothing twice: it builds on a round already resubmitted and is refused.

Examples:
  $ eligibility batches resubmit 3f9c0a1b2c3d4e5f6a7b
  $ eligibility batches resubmit 3f9c0a1b2c3d4e5f6a7b --outcomes failed,no-coverage`,
    )
    .action(async (batchId: string, options: { outcomes: ResubmittableOutcome[]; idempotencyKey?: string }) => {
      const { resubmitBatch } = await import('../../batches/actions.js');
      const { describeBatch } = await import('../../batches/describe.js');
      await withClient(ctx, async (client) => {
        const answer = await resubmitBatch(
          client,
          batchId,
          options.outcomes,
          options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {},
        ).catch(async (err: unknown) => {
          throw await refusal(err, batchId, () => describeBatch(client, batchId));
        });
        console.log(
          answer.accepted
            ? `round ${answer.round}: the batch starts its ${options.outcomes.join(', ')} items again`
            : `round ${answer.round} was resubmitted already: nothing new was started`,
        );
      });
    });

  batches
    .command('cancel')
    .description('cancel a batch: nothing new starts, its running items are cancelled')
    .argument('<batchId>', 'the batch id', batchIdArgument)
    .action(async (batchId: string) => {
      const { cancelBatch } = await import('../../batches/actions.js');
      const { describeBatch } = await import('../../batches/describe.js');
      await withClient(ctx, async (client) => {
        const memo = await cancelBatch(client, batchId).catch(async (err: unknown) => {
          throw await refusal(err, batchId, () => describeBatch(client, batchId));
        });
        console.log(`batch ${batchId} ${memo.phase}`);
      });
    });
}
