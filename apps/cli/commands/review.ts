import { createInterface } from 'node:readline/promises';
import { Option, type Command } from 'commander';
import { Uuid } from '../../../src/contract/index.js';
import type { ReviewDecision } from '../../../workflows/verification/verification.js';
import { rethrowExplainingClosed } from '../closed.js';
import { recordAccess } from '../audit-record.js';
import { CliError, withClient, type CliContext } from '../context.js';

const DUPLICATE_RISK =
  'The first call may have created a verification the service never confirmed; calling again may create a second one.';

interface ReviewOptions {
  retry?: boolean;
  record?: string;
  abandon?: boolean;
  yes?: boolean;
}

function decisionOf(options: ReviewOptions): ReviewDecision {
  const chosen = [options.retry, options.record !== undefined, options.abandon].filter(Boolean).length;
  if (chosen !== 1) throw new CliError('choose one of --retry, --record <verificationId> or --abandon');
  if (options.record !== undefined) {
    if (!Uuid.safeParse(options.record).success) {
      throw new CliError('--record takes the verification id found at the service (a UUID)');
    }
    return { action: 'record', verificationId: options.record };
  }
  return options.retry ? { action: 'retry' } : { action: 'abandon' };
}

/** A retry may create a duplicate: a person at a terminal says yes to it, a script says --yes. */
async function confirmRetry(yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY) throw new CliError(`${DUPLICATE_RISK} Add --yes to retry anyway.`);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${DUPLICATE_RISK}\nRetry anyway? [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('not retried');
  } finally {
    prompt.close();
  }
}

const DONE: Record<ReviewDecision['action'], (workflowId: string) => string> = {
  retry: (id) => `${id}: retry accepted; the workflow calls the service again (see \`eligibility status ${id}\`)`,
  record: (id) => `${id}: verification id recorded, no call made; it continues as created`,
  abandon: (id) => `${id}: abandoned; it closes as abandoned (a verification may exist at the service)`,
};

export function registerReview(program: Command, ctx: CliContext): void {
  program
    .command('review')
    .description('decide a v1 verification in stage needs-review: retry, record the id found, or abandon')
    .argument('<workflowId>', 'a verification in stage needs-review (`eligibility list --stage needs-review`)')
    .addOption(new Option('--retry', 'call the service again, accepting that a duplicate may be created'))
    .addOption(new Option('--record <verificationId>', 'the id of the verification you found at the service'))
    .addOption(new Option('--abandon', 'close the verification as abandoned'))
    .option('--yes', 'with --retry: do not ask (for scripts)')
    .addHelpText(
      'after',
      `
A v1 creation whose outcome is unknown (no answer from the service: a dropped connection, a timeout, a 5xx, a lost
worker) is never retried automatically: the service cannot tell a repeated v1 request from a new one, so a retry
may create a second verification. The verification waits in needs-review
(\`eligibility status\` says why) until a person decides, or ends as timed-out after the review deadline (7 days).
${DUPLICATE_RISK}

Examples:
  $ eligibility review verification-p-007 --record 0b6f1c7e-2d4a-4c8e-9f3b-5a1d2e3f4a5b
  $ eligibility review verification-p-007 --retry
  $ eligibility review verification-p-007 --abandon`,
    )
    .action(async (workflowId: string, options: ReviewOptions) => {
      const decision = decisionOf(options);
      const { requireMayAct, visibleWorkflow } = await import('../person.js');
      await requireMayAct(ctx, { action: `review.${decision.action}`, what: 'decide a review', workflowId });
      if (decision.action === 'retry') await confirmRetry(options.yes);
      const { ApplicationFailure, WorkflowUpdateFailedError } = await import('@temporalio/client');
      const { resolveReviewUpdate } = await import('../../../workflows/verification/verification.js');
      const { failureDetails } = await import('../../../workflows/shared/failure-details.js');
      await withClient(ctx, async (client) => {
        const { tenant } = await visibleWorkflow(ctx, client, workflowId, `review.${decision.action}`);
        try {
          await client.workflow.getHandle(workflowId).executeUpdate(resolveReviewUpdate, { args: [decision] });
        } catch (err) {
          if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
            const { param } = failureDetails(err.cause);
            const named = param !== undefined ? ` (param ${param})` : '';
            throw new CliError(`decision refused${named}: ${err.cause.message}`);
          }
          return rethrowExplainingClosed(client, workflowId, err, 'it takes no more decisions');
        }
        await recordAccess(ctx, { action: `review.${decision.action}`, tenant, workflowId, outcome: 'ok' });
        console.log(DONE[decision.action](workflowId));
      });
    });
}
