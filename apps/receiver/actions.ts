import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';

/** What an action needs: the process's one Temporal client and the workflows' task queue. */
export interface ActionContext {
  client: Client;
  taskQueue: string;
  /** How long a run event waits for visibility to show a just-created verification (default 1500 ms). */
  visibilityWaitMs?: number;
}

/** Which workflows an event reached, for the log line (identifiers only). */
export interface ActionReport {
  signalled: string[];
  started?: string;
}

/**
 * Signals a workflow; false when it does not exist or has closed (Temporal answers both with NOT_FOUND). Any other
 * failure is Temporal's and propagates, so the delivery is answered 503 and retried.
 */
export async function signalIfOpen<Args extends unknown[]>(
  client: Client,
  workflowId: string,
  signal: SignalDefinition<Args>,
  ...args: Args
): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).signal(signal, ...args);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
