import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { RESUBMITTABLE_OUTCOMES, type ResubmittableOutcome } from '../../../workflows/shared/stages.js';
import { recordAccess } from '../audit-record.js';
import { CliError, withClient, type CliContext } from '../context.js';
import { plural } from '../../../src/text-format.js';
import { batchIdArgument, oneOf } from '../option-parsers.js';

const outcomeList = (value: string): ResubmittableOutcome[] =>
  value.split(',').map((v) => oneOf(RESUBMITTABLE_OUTCOMES)(v.trim()));

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

/** `batches results | resubmit | cancel`: what reads every row, and what acts on a batch. */
export function registerBatchActions(batches: Command, ctx: CliContext): void {
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
payerName comes from the service's payer endpoint (ELIGIBILITY_BASE_URL) when the discovery did not name the payer.

Example:
  $ eligibility batches results 3f9c0a1b2c3d4e5f6a7b --out results.csv`,
    )
    .action(async (batchId: string, options: { out?: string; format?: 'csv' | 'jsonl' }) => {
      const { batchResults, resultPatientFields } = await import('../../../src/batches/results.js');
      const { resultsCsv, resultsJsonl } = await import('../../../src/batches/results-format.js');
      const { resultsFor } = await import('../../../src/access/masking.js');
      const { personOf, visibleBatch } = await import('../person.js');
      const format = options.format ?? (options.out?.endsWith('.jsonl') ? 'jsonl' : 'csv');
      await withClient(ctx, async (client) => {
        const view = await visibleBatch(ctx, client, batchId, 'batch.results');
        // A viewer's results hold member ids masked, as the console's download does.
        const { PayerNames } = await import('../../../src/payers/payer-names.js');
        const { EligibilityClient } = await import('../../../src/client/index.js');
        const payers = new PayerNames(new EligibilityClient(ctx.config().service));
        const rows = resultsFor(await personOf(ctx), await batchResults(client, batchId, view.pages, payers));
        const text = format === 'csv' ? resultsCsv(rows) : resultsJsonl(rows);
        const fields = resultPatientFields(rows);
        await recordAccess(ctx, {
          action: 'batch.results',
          tenant: view.tenant ?? null,
          batchId,
          fields,
          outcome: 'ok',
        });
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
      const { resubmitBatch } = await import('../../../src/batches/actions.js');
      const { describeBatch } = await import('../../../src/batches/describe.js');
      const { requireMayAct, visibleBatch } = await import('../person.js');
      await requireMayAct(ctx, { action: 'batch.resubmit', what: 'resubmit a batch', batchId });
      await withClient(ctx, async (client) => {
        const { tenant = null } = await visibleBatch(ctx, client, batchId, 'batch.resubmit');
        const answer = await resubmitBatch(
          client,
          batchId,
          options.outcomes,
          options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {},
        ).catch(async (err: unknown) => {
          throw await refusal(err, batchId, () => describeBatch(client, batchId));
        });
        const outcome = answer.accepted ? 'ok' : 'repeat';
        await recordAccess(ctx, { action: 'batch.resubmit', tenant, batchId, outcome });
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
      const { cancelBatch } = await import('../../../src/batches/actions.js');
      const { describeBatch } = await import('../../../src/batches/describe.js');
      const { requireMayAct, visibleBatch } = await import('../person.js');
      await requireMayAct(ctx, { action: 'batch.cancel', what: 'cancel a batch', batchId });
      await withClient(ctx, async (client) => {
        const { tenant = null } = await visibleBatch(ctx, client, batchId, 'batch.cancel');
        const memo = await cancelBatch(client, batchId).catch(async (err: unknown) => {
          throw await refusal(err, batchId, () => describeBatch(client, batchId));
        });
        await recordAccess(ctx, { action: 'batch.cancel', tenant, batchId, outcome: 'ok' });
        console.log(`batch ${batchId} ${memo.phase}`);
      });
    });
}
