import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { IntakeValidationError, startVerification } from '../temporal/start-verification.js';
import { verificationWorkflowId } from '../../workflows/ids.js';
import type { Timing } from '../../workflows/timing.js';
import { resolveSandboxDiscovery, wantsSandboxDiscovery } from './sandbox-discovery.js';
import type { ValidRow } from './validate-rows.js';

export type StartOutcome =
  | { row: number; line: number; status: 'started' | 'duplicate'; workflowId: string }
  | { row: number; line: number; status: 'failed'; message: string; param?: string };

export interface StartRequestsOptions {
  taskQueue: string;
  /** Starts in flight at once. */
  concurrency: number;
  /** Where `@sandbox` discoveries are created; rows that need it fail without it. */
  sandboxUrl?: string;
  timing?: Partial<Timing>;
  /** Called as each row finishes, in completion order (for progress). */
  onOutcome?: (outcome: StartOutcome) => void;
}

/** Whether a verification with this caller id exists already, running or closed (so starting it is a duplicate). */
async function verificationExists(client: Client, callerId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(verificationWorkflowId(callerId)).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

async function startRow(client: Client, { row, line, request }: ValidRow, options: StartRequestsOptions) {
  try {
    // A repeated file must not create a second sandbox discovery for a row whose verification already exists.
    if (wantsSandboxDiscovery(request) && request.id !== undefined && (await verificationExists(client, request.id))) {
      return { row, line, status: 'duplicate', workflowId: verificationWorkflowId(request.id) } as const;
    }
    const resolved = await resolveSandboxDiscovery(request, options.sandboxUrl);
    const { workflowId, started } = await startVerification(client, resolved, {
      taskQueue: options.taskQueue,
      ...(options.timing ? { timing: options.timing } : {}),
    });
    return { row, line, status: started ? 'started' : 'duplicate', workflowId } as const;
  } catch (err) {
    const param = err instanceof IntakeValidationError ? { param: err.param } : {};
    // First line only: a server error's detail is for --verbose runs, not a summary table.
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'failed';
    return { row, line, status: 'failed', message, ...param } as const;
  }
}

/**
 * Starts the verifications of validated rows, at most `concurrency` at a time; one row's failure never stops the
 * others. Outcomes come back in row order. A row's caller id deduplicates: a row seen before is a `duplicate`.
 */
export async function startRequests(
  client: Client,
  rows: readonly ValidRow[],
  options: StartRequestsOptions,
): Promise<StartOutcome[]> {
  const outcomes: StartOutcome[] = new Array<StartOutcome>(rows.length);
  let next = 0;
  const lane = async () => {
    while (next < rows.length) {
      const index = next++;
      const outcome = await startRow(client, rows[index]!, options);
      outcomes[index] = outcome;
      options.onOutcome?.(outcome);
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency, rows.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return outcomes;
}
