import { InvalidArgumentError, type Command } from 'commander';
import { STAGES, type Stage } from '../../../workflows/shared/stages.js';
import { withClient, type CliContext } from '../context.js';
import { limitOption, pageRequest, pageTokenOption, printNextPage, type PageOptions } from '../page-options.js';
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
    .description('list verifications, newest first, a page at a time, optionally only those at one stage')
    .option('--stage <stage>', `only verifications at this stage: ${STAGES.join(', ')}`, stage)
    .addOption(limitOption())
    .addOption(pageTokenOption())
    .addHelpText(
      'after',
      `
Uses the search attributes VerificationStage, PayerId and VerificationId (visibility can lag a moment behind).
With --as an operator of some tenants, only their tenants' verifications (the Tenant search attribute).
The same query works in Temporal UI: WorkflowType = 'verificationWorkflow' AND VerificationStage = 'awaiting-input'.

Examples:
  $ eligibility list --stage awaiting-input
  $ eligibility list --limit 100
  $ eligibility list --limit 100 --page-token <the token the page before printed>`,
    )
    .action(async (options: { stage?: Stage } & PageOptions) => {
      const { listVerifications } = await import('../../../src/temporal/list-verifications.js');
      const { personOf } = await import('../person.js');
      const { tenantsToList } = await import('../../../src/access/tenancy.js');
      const tenant = tenantsToList((await personOf(ctx)).tenants);
      await withClient(ctx, async (client) => {
        const page = await listVerifications(client, {
          ...(options.stage ? { stage: options.stage } : {}),
          ...(tenant !== undefined ? { tenant } : {}),
          ...pageRequest(options),
        });
        const rows = page.verifications.map((v) => [
          v.workflowId,
          v.stage ?? '',
          v.payerId ?? '',
          v.verificationId ?? '',
          v.status,
        ]);
        if (rows.length === 0)
          console.log(options.stage ? `no verifications at stage ${options.stage}` : 'no verifications');
        else console.log(table(['workflowId', 'stage', 'payerId', 'verificationId', 'status'], rows));
        printNextPage(page.nextPageToken);
      });
    });
}
