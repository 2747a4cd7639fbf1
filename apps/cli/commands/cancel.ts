import type { Command } from 'commander';
import { rethrowExplainingClosed } from '../closed.js';
import { recordAccess } from '../audit-record.js';
import { withClient, type CliContext } from '../context.js';

export function registerCancel(program: Command, ctx: CliContext): void {
  program
    .command('cancel')
    .description('ask a verification (or a discovery or run workflow) to stop')
    .argument('<workflowId>', 'e.g. verification-p-001')
    .addHelpText(
      'after',
      `
The workflow ends as \`cancelled\` at its next step: a call to the service already under way finishes first, and a
verification already created at the service stays there. A closed workflow is named with how it ended (exit 1).

Example:
  $ eligibility cancel verification-p-001`,
    )
    .action(async (workflowId: string) => {
      const { cancelSignal } = await import('../../../workflows/verification/verification.js');
      const { requireMayAct, visibleWorkflow } = await import('../person.js');
      await requireMayAct(ctx, { action: 'verification.cancel', what: 'cancel a verification', workflowId });
      await withClient(ctx, async (client) => {
        const { tenant } = await visibleWorkflow(ctx, client, workflowId, 'verification.cancel');
        try {
          await client.workflow.getHandle(workflowId).signal(cancelSignal, { reason: 'eligibility cancel' });
        } catch (err) {
          return rethrowExplainingClosed(client, workflowId, err, 'there is nothing to cancel');
        }
        await recordAccess(ctx, { action: 'verification.cancel', tenant, workflowId, outcome: 'ok' });
        console.log(`${workflowId}: cancel sent; it ends as cancelled (see \`eligibility status ${workflowId}\`)`);
      });
    });
}
