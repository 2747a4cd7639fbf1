import type { WorkflowExecutionDescription } from '@temporalio/client';
import type { Command } from 'commander';
import type { VerificationStatus } from '../../../workflows/verification/verification.js';
import { statusFields } from '../../../src/audit/patient-fields.js';
import { recordAccess } from '../audit-record.js';
import { CliError, withClient, type CliContext } from '../context.js';
import { discoveryText } from '../../../src/temporal/status-text.js';
import { fields } from '../../../src/text-format.js';

/** A query needs a worker to answer it (even for a closed workflow, which is replayed); none may be running. */
const QUERY_TIMEOUT_MS = 10_000;

function readable(workflowId: string, d: WorkflowExecutionDescription, s: VerificationStatus | undefined): string {
  const execution = `${d.status.name} (${d.type}, task queue ${d.taskQueue}, started ${d.startTime.toISOString()})`;
  const [id, ...rest] = statusRows(workflowId, s);
  return fields([id!, ['execution', execution], ['closed', d.closeTime?.toISOString()], ...rest]);
}

/** A verification's status as the CLI prints it, row by row (`status`, and `start --wait`). */
export function statusRows(workflowId: string, s: VerificationStatus | undefined): [string, string | undefined][] {
  const discovery = s?.discovery ? discoveryText(s.discovery) : undefined;
  const runs = s?.runs.length
    ? s.runs.map((r) => `${r.flowRunId} ${r.state}${r.serviceStatus ? ` (${r.serviceStatus})` : ''}`).join('; ')
    : undefined;
  const lastError = s?.lastError
    ? `${s.lastError.type}${s.lastError.param ? ` (param ${s.lastError.param})` : ''}: ${s.lastError.message}`
    : undefined;
  return [
    ['workflowId', workflowId],
    ['stage', s?.stage ?? '(this workflow reports no stage: not a verification)'],
    ['version', s?.version],
    ['callerId', s?.callerId],
    ['payerId', s?.payerId],
    ['specialtyCode', s?.specialtyCode],
    ['discoveryId', s?.discoveryId],
    ['verificationId', s?.verificationId],
    ['discovery', discovery],
    ['runs', runs],
    ['awaiting input', s?.pendingRuns.length ? s.pendingRuns.join(', ') : undefined],
    [
      'needs review',
      s?.review
        ? `${s.review.reason}; decide by ${s.review.decideBy} with \`eligibility review ${workflowId}\``
        : undefined,
    ],
    ['last error', lastError],
  ];
}

export function registerStatus(program: Command, ctx: CliContext): void {
  program
    .command('status')
    .description(
      "show a verification's stage, identifiers, runs and last error (asked of the verification itself: a worker must be running)",
    )
    .argument('<workflowId>', 'e.g. verification-p-001')
    .option('--json', 'print the status as JSON')
    .addHelpText(
      'after',
      `
Shows identifiers and progress only, never patient data.

Examples:
  $ eligibility status verification-p-001
  $ eligibility status verification-p-001 --json`,
    )
    .action(async (workflowId: string, options: { json?: boolean }) => {
      const { QueryNotRegisteredError } = await import('@temporalio/client');
      const { statusQuery } = await import('../../../workflows/verification/verification.js');
      const { rootCause } = await import('../errors.js');
      const { temporalFailureReason } = await import('../../../src/temporal/errors.js');
      const { visibleWorkflow } = await import('../person.js');
      await withClient(ctx, async (client, config) => {
        const handle = client.workflow.getHandle(workflowId);
        // Another tenant's workflow, for an operator of some tenants (--as), is one that does not exist.
        const { description, tenant } = await visibleWorkflow(ctx, client, workflowId, 'verification.read');
        let status: VerificationStatus | undefined;
        try {
          status = await client.withDeadline(Date.now() + QUERY_TIMEOUT_MS, () => handle.query(statusQuery));
        } catch (err) {
          if (!(err instanceof QueryNotRegisteredError)) {
            const reason =
              temporalFailureReason(err) === 'no-answer'
                ? `no answer from the verification within ${QUERY_TIMEOUT_MS / 1000} s`
                : `its status could not be read (${rootCause(err)})`;
            throw new CliError(
              `${workflowId}: ${reason}; is a worker polling task queue ${description.taskQueue} on ` +
                `${config.temporal.address}?`,
            );
          }
        }
        const fields = status ? statusFields(status) : [];
        await recordAccess(ctx, { action: 'verification.read', tenant, workflowId, fields, outcome: 'ok' });
        if (options.json) {
          const execution = {
            workflowId,
            runId: description.runId,
            type: description.type,
            execution: description.status.name,
            taskQueue: description.taskQueue,
            startTime: description.startTime.toISOString(),
            closeTime: description.closeTime?.toISOString(),
          };
          console.log(JSON.stringify({ ...execution, ...(status ?? {}) }, null, 2));
        } else {
          console.log(readable(workflowId, description, status));
        }
      });
    });
}
