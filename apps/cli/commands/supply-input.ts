import type { Command } from 'commander';
import type { RunInput } from '../../../src/contract/index.js';
import { rethrowExplainingClosed } from '../closed.js';
import { IntakeRunInput } from '../../intake-api/schemas.js';
import { recordAccess } from '../audit-record.js';
import { CliError, withClient, type CliContext } from '../context.js';
import { isPlainObject } from '../../../workflows/shared/plain-object.js';

/** The update's activity gives up after 2 minutes (workflows/verification/run-inputs.ts): wait a little longer. */
const UPDATE_TIMEOUT_MS = 150_000;

function parseInput(text: string): RunInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError('--input is not valid JSON');
  }
  const parsed = IntakeRunInput.safeParse(value);
  if (!parsed.success) {
    throw new CliError(
      isPlainObject(value)
        ? `--input ${parsed.error.issues[0]?.message ?? 'is invalid'}`
        : '--input must be a JSON object',
    );
  }
  return parsed.data;
}

export function registerSupplyInput(program: Command, ctx: CliContext): void {
  program
    .command('supply-input')
    .description('send the input a run waiting for a person asks for, and print the service’s answer')
    .argument('<workflowId>', 'the verification (or run-<flowRunId>) workflow')
    .argument('<flowRunId>', 'the run awaiting input (see `eligibility status`)')
    .requiredOption('--input <json>', 'the input, a JSON object')
    .addHelpText(
      'after',
      `
Prints the service's answer, {"flowRunId", "status"}. A rejection (by the workflow or the service) prints one line
naming the field at fault (param) and exits 1; the run then still awaits input.

Example:
  $ eligibility supply-input verification-p-003 6f1c…-run-id --input '{"authorizationNumber":"A-100"}'`,
    )
    .action(async (workflowId: string, flowRunId: string, options: { input: string }) => {
      const input = parseInput(options.input);
      const { WorkflowUpdateFailedError } = await import('@temporalio/client');
      const { describeRejection } = await import('../../../src/temporal/rejection.js');
      const { supplyRunInputUpdate } = await import('../../../workflows/verification/verification.js');
      const { requireMayAct, visibleWorkflow } = await import('../person.js');
      await requireMayAct(ctx, { action: 'run.answer', what: 'answer a run', workflowId });
      await withClient(ctx, async (client) => {
        const { tenant } = await visibleWorkflow(ctx, client, workflowId, 'run.answer');
        const handle = client.workflow.getHandle(workflowId);
        // The names of the keys sent, never their values; a refusal is recorded as the console and the API record it.
        const fields = Object.keys(input).map((name) => `input.${name}`);
        const answered = (outcome: string) =>
          recordAccess(ctx, { action: 'run.answer', tenant, workflowId, fields, outcome });
        try {
          const answer = await client.withDeadline(Date.now() + UPDATE_TIMEOUT_MS, () =>
            handle.executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId, input }] }),
          );
          await answered('ok');
          console.log(JSON.stringify(answer));
        } catch (err) {
          if (err instanceof WorkflowUpdateFailedError) {
            await answered('refused');
            const { param, reason } = describeRejection(err);
            throw new CliError(`input rejected${param ? ` (param ${param})` : ''}: ${reason}`);
          }
          return rethrowExplainingClosed(
            client,
            workflowId,
            err,
            'it takes no more input (a run that asks for input later gets its own run-<flowRunId> workflow)',
          );
        }
      });
    });
}
