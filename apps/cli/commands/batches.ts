import type { Command } from 'commander';
import { TenantSchema } from '../../../src/batches/limits.js';
import {
  ITEM_OUTCOMES,
  RUNNING_STAGES,
  type ItemOutcome,
  type RunningStage,
} from '../../../workflows/shared/stages.js';
import { CliError, withClient, type CliContext } from '../context.js';
import { limitOption, pageTokenOption, printNextPage, type PageOptions } from '../page-options.js';
import { table } from '../../../src/text-format.js';
import { batchIdArgument, oneOf, parsedWith } from '../option-parsers.js';
import { registerBatchActions } from './batches-act.js';

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
    .description('batches, newest first, a page at a time')
    .option(
      '--tenant <id>',
      'only this tenant’s batches (with --as an operator: one of theirs)',
      parsedWith(TenantSchema),
    )
    .addOption(limitOption())
    .addOption(pageTokenOption())
    .action(async (options: { tenant?: string } & PageOptions) => {
      const { listBatches } = await import('../../../src/batches/describe.js');
      const { groupLine } = await import('../../../src/batches/batch-view.js');
      const { tenantsToListFor } = await import('../person.js');
      const tenant = await tenantsToListFor(ctx, options.tenant, 'batch.list');
      await withClient(ctx, async (client) => {
        const page = await listBatches(client, {
          pageSize: options.limit,
          ...(tenant !== undefined ? { tenant } : {}),
          ...(options.pageToken ? { pageToken: options.pageToken } : {}),
        });
        if (page.batches.length === 0) console.log('no batches');
        else {
          console.log(
            table(
              ['batchId', 'label', 'by', 'state', 'items', 'progress', 'created'],
              page.batches.map((b) => [
                b.batchId,
                b.label ?? '',
                b.submittedBy ?? '',
                b.state,
                b.counts.items,
                groupLine(b.counts),
                b.createdAt,
              ]),
            ),
          );
        }
        printNextPage(page.nextPageToken);
      });
    });

  batches
    .command('status')
    .description('a batch’s state, counts by outcome, and times')
    .argument('<batchId>', 'the batch id', batchIdArgument)
    .option('--wait', 'follow it with a progress bar until nothing is on its way')
    .option('--json', 'print it as JSON')
    .action(async (batchId: string, options: { wait?: boolean; json?: boolean }) => {
      const { followBatch } = await import('../batch-follow.js');
      const { batchFields, outcomeTable } = await import('../../../src/batches/batch-view.js');
      const { visibleBatch } = await import('../person.js');
      await withClient(ctx, async (client) => {
        // Another tenant's batch, for an operator of some tenants (--as), is one that does not exist.
        const described = await visibleBatch(ctx, client, batchId, 'batch.read');
        const view = options.wait
          ? await followBatch(client, batchId, { tty: process.stdout.isTTY === true && !options.json })
          : described;
        if (options.json) return console.log(JSON.stringify(view, null, 2));
        console.log(`${batchFields(view)}\n\n${outcomeTable(view.counts)}`);
      });
    });

  batches
    .command('items')
    .description(
      'a batch’s items in row order (the submitted file’s), a page at a time: row, workflow id, round, stage or outcome, verification id',
    )
    .argument('<batchId>', 'the batch id', batchIdArgument)
    .option('--stage <stage>', `only items running at: ${RUNNING_STAGES.join(', ')}`, oneOf(RUNNING_STAGES))
    .option('--outcome <outcome>', `only items that ended: ${ITEM_OUTCOMES.join(', ')}`, oneOf(ITEM_OUTCOMES))
    .option('--all-attempts', 'include attempts a resubmission replaced')
    .addOption(limitOption())
    .addOption(pageTokenOption())
    .action(
      async (
        batchId: string,
        options: { stage?: RunningStage; outcome?: ItemOutcome; allAttempts?: boolean } & PageOptions,
      ) => {
        if (options.stage && options.outcome) throw new CliError('give --stage or --outcome, not both', 2);
        const { listBatchItems } = await import('../../../src/batches/items.js');
        const { visibleBatch } = await import('../person.js');
        await withClient(ctx, async (client) => {
          await visibleBatch(ctx, client, batchId, 'batch.read');
          const page = await listBatchItems(client, batchId, {
            pageSize: options.limit,
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
          printNextPage(page.nextPageToken);
        });
      },
    );

  registerBatchActions(batches, ctx);
}
