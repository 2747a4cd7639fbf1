import { InvalidArgumentError, type Command } from 'commander';
import { STAGES, type Stage } from '../../../workflows/shared/stages.js';
import { positiveInt, withClient, type CliContext } from '../context.js';
import { table } from '../../../src/text-format.js';

function stage(value: string): Stage {
  if (!(STAGES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${STAGES.join(', ')}.`);
  }
  return value as Stage;
}

export function registerList(program: Command, ctx: CliContext): void {
  program
    .command('list')
    .description('list verifications, newest first, optionally only those at one stage (a visibility query)')
    .option('--stage <stage>', `only verifications at this stage: ${STAGES.join(', ')}`, stage)
    .option('--limit <n>', 'at most this many', positiveInt, 20)
    .addHelpText(
      'after',
      `
Uses the search attributes VerificationStage, PayerId and VerificationId (visibility can lag a moment behind).
With --as an operator of some tenants, only their tenants' verifications (the Tenant search attribute).
The same query works in Temporal UI: WorkflowType = 'verificationWorkflow' AND VerificationStage = 'awaiting-input'.

Examples:
  $ eligibility list --stage awaiting-input
  $ eligibility list --limit 100`,
    )
    .action(async (options: { stage?: Stage; limit: number }) => {
      const { listVerifications } = await import('../../../src/temporal/list-verifications.js');
      const { personOf, tenantsToList } = await import('../person.js');
      const tenant = tenantsToList(await personOf(ctx));
      await withClient(ctx, async (client) => {
        const found = await listVerifications(client, {
          ...(options.stage ? { stage: options.stage } : {}),
          ...(tenant !== undefined ? { tenant } : {}),
          limit: options.limit,
        });
        const rows = found.map((v) => [v.workflowId, v.stage ?? '', v.payerId ?? '', v.verificationId ?? '', v.status]);
        if (rows.length === 0) {
          console.log(options.stage ? `no verifications at stage ${options.stage}` : 'no verifications');
          return;
        }
        console.log(table(['workflowId', 'stage', 'payerId', 'verificationId', 'status'], rows));
      });
    });
}
