/**
 * The faults bench's batch: rows started straight from this process, not through a batch workflow (`eligibility
 * batch`, src/batches/), so a fault meets the verifications alone. It was the CLI's batch before batches were durable
 * objects; its test is test/lab/faults-start-outage.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import pLimit from 'p-limit';
import type { VerificationIntake } from '../../src/contract/index.js';
import { temporalFailureKind } from '../../src/temporal/errors.js';
import { IntakeValidationError, startVerification } from '../../src/temporal/start-verification.js';
import { verificationWorkflowId } from '../../workflows/shared/ids.js';
import type { TenantWeights } from '../../workflows/shared/priority.js';
import type { Timing } from '../../workflows/shared/timing.js';
import { resolveSandboxDiscovery, wantsSandboxDiscovery } from '../../src/intake-files/sandbox-discovery.js';
import type { ValidRow } from '../../src/intake-files/validate-rows.js';

export type StartOutcome =
  | { row: number; line: number; status: 'started' | 'duplicate'; workflowId: string }
  | { row: number; line: number; status: 'failed'; message: string; param?: string };

/** A row waits to be tried again because Temporal was unavailable. */
export interface RetryNotice {
  row: number;
  /** The attempt that failed (1 = the first). */
  attempt: number;
  delayMs: number;
}

export interface StartRequestsOptions {
  taskQueue: string;
  /** Starts in flight at once. */
  concurrency: number;
  /** Where `@sandbox` discoveries are created; rows that need it fail without it. */
  sandboxUrl?: string;
  timing?: Partial<Timing>;
  /** The submitter's tenant (never PHI): every row's fairness key in the bulk lane. */
  tenant?: string;
  tenantWeights?: TenantWeights;
  /** How long a row whose start failed because Temporal was unavailable keeps being retried (default one minute). */
  retryForMs?: number;
  /** Called as each row finishes, in completion order (for progress). */
  onOutcome?: (outcome: StartOutcome) => void;
  /** Called when a row waits to be retried (for progress). */
  onRetry?: (notice: RetryNotice) => void;
}

export const DEFAULT_RETRY_FOR_MS = 60_000;
const FIRST_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8000;

/** Half to all of a doubling delay, so rows that failed together do not all come back in the same instant. */
function retryDelayMs(attempt: number): number {
  const full = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** (attempt - 1));
  return Math.round(full / 2 + (Math.random() * full) / 2);
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

/** Whether the workflow was started at or after `sinceMs` (then an earlier attempt of this row started it). */
async function startedSince(client: Client, workflowId: string, sinceMs: number): Promise<boolean> {
  const { startTime } = await client.workflow.getHandle(workflowId).describe();
  // A few seconds of slack for the clocks of this machine and of the Temporal server.
  return startTime.getTime() >= sinceMs - 5000;
}

/** The attempts of one row: calls that failed because Temporal was unavailable are repeated for a bounded time. */
class RowAttempts {
  private attempt = 0;
  private readonly firstAt = Date.now();
  retried = false;

  constructor(
    private readonly row: number,
    private readonly options: StartRequestsOptions,
  ) {}

  get startedAt(): number {
    return this.firstAt;
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    for (;;) {
      this.attempt += 1;
      try {
        return await call();
      } catch (err) {
        const delayMs = retryDelayMs(this.attempt);
        const budget = this.options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
        if (temporalFailureKind(err) !== 'unavailable' || Date.now() + delayMs - this.firstAt > budget) throw err;
        this.retried = true;
        this.options.onRetry?.({ row: this.row, attempt: this.attempt, delayMs });
        await sleep(delayMs);
      }
    }
  }
}

function failureMessage(err: unknown, options: StartRequestsOptions): string {
  switch (temporalFailureKind(err)) {
    case 'unavailable':
      return `Temporal did not answer (retried for ${Math.round((options.retryForMs ?? DEFAULT_RETRY_FOR_MS) / 1000)} s); run the file again`;
    case 'invalid':
      return 'Temporal refused the request as invalid';
    default:
      // First line only: a server error's detail is for --verbose runs, not a summary table.
      return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'failed';
  }
}

async function startRow(client: Client, { row, line, request }: ValidRow, options: StartRequestsOptions) {
  const attempts = new RowAttempts(row, options);
  // One workflow id for every attempt of a row without a caller id: a retried start can never start it twice.
  const anonymousId = randomUUID();
  try {
    // A repeated file must not create a second sandbox discovery for a row whose verification already exists.
    if (wantsSandboxDiscovery(request) && request.id !== undefined) {
      const callerId = request.id;
      if (await attempts.run(() => verificationExists(client, callerId))) {
        return { row, line, status: 'duplicate', workflowId: verificationWorkflowId(callerId) } as const;
      }
    }
    const resolved: VerificationIntake = await resolveSandboxDiscovery(request, options.sandboxUrl);
    const { workflowId, started } = await attempts.run(() =>
      startVerification(client, resolved, {
        taskQueue: options.taskQueue,
        anonymousId,
        // A file of rows is bulk work (docs/developing/traffic.md): it never overtakes the front desk.
        lane: 'bulk',
        ...(options.tenant ? { tenant: options.tenant } : {}),
        ...(options.tenantWeights ? { tenantWeights: options.tenantWeights } : {}),
        ...(options.timing ? { timing: options.timing } : {}),
      }),
    );
    // After a retry, "already started" may be this row's own first attempt, whose answer was lost in the outage.
    const ours =
      started || (attempts.retried && (await attempts.run(() => startedSince(client, workflowId, attempts.startedAt))));
    return { row, line, status: ours ? 'started' : 'duplicate', workflowId } as const;
  } catch (err) {
    const param = err instanceof IntakeValidationError ? { param: err.param } : {};
    return { row, line, status: 'failed', message: failureMessage(err, options), ...param } as const;
  }
}

/**
 * Starts the verifications of validated rows, at most `concurrency` at a time; one row's failure never stops the
 * others. Outcomes come back in row order. A row's caller id deduplicates: a row seen before is a `duplicate`. While
 * Temporal is unavailable, rows are retried with backoff for up to `retryForMs`, so an outage of that length loses
 * nothing and leaves nothing for the user to re-run.
 */
export async function startRequests(
  client: Client,
  rows: readonly ValidRow[],
  options: StartRequestsOptions,
): Promise<StartOutcome[]> {
  const limit = pLimit(Math.max(1, options.concurrency));
  return Promise.all(
    rows.map((row) =>
      limit(async () => {
        const outcome = await startRow(client, row, options);
        options.onOutcome?.(outcome);
        return outcome;
      }),
    ),
  );
}
