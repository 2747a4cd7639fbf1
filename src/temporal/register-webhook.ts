import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { webhookSetupWorkflowId } from '../../workflows/shared/ids.js';
import type { webhookSetupWorkflow } from '../../workflows/verification/index.js';
import type { WebhookSetupResult } from '../../workflows/verification/verification.js';
import { and, withStatus, withWorkflowId } from './visibility-query.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { webhookSetupStartMetadata } from '../../workflows/verification/verification.js';

export interface RegisterWebhookOptions {
  url: string;
  events: string[];
  taskQueue: string;
  /**
   * false when the service side is known to be new (the sandbox `eligibility dev` starts keeps no state between
   * runs): an endpoint an earlier run registered does not exist there, so it is registered again.
   */
  reuse?: boolean;
}

async function completedResult(client: Client, workflowId: string, runId?: string) {
  return client.workflow.getHandle<typeof webhookSetupWorkflow>(workflowId, runId).result();
}

/**
 * The result of the last completed setup of this url, or undefined. A setup still running is awaited: its result is
 * what the next one builds on. When the latest run did not complete (failed, terminated), an older completed run is
 * looked up in visibility.
 */
async function previousSetup(client: Client, workflowId: string): Promise<WebhookSetupResult | undefined> {
  try {
    const { status } = await client.workflow.getHandle(workflowId).describe();
    if (status.name === 'COMPLETED' || status.name === 'RUNNING') return await completedResult(client, workflowId);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
  const query = and(withWorkflowId(workflowId), withStatus('Completed'));
  for await (const run of client.workflow.list({ query, pageSize: 1 })) {
    return completedResult(client, workflowId, run.runId);
  }
  return undefined;
}

/**
 * Runs `webhookSetupWorkflow` for `url` (workflow id `webhookSetupWorkflowId(url)`) and waits for its result. The
 * service cannot list endpoints, so the previous completed run's result is passed as `existing`: re-running registers
 * nothing again and subscribes only events not yet subscribed.
 */
export async function registerWebhook(client: Client, options: RegisterWebhookOptions): Promise<WebhookSetupResult> {
  const workflowId = webhookSetupWorkflowId(options.url);
  const previous = options.reuse === false ? undefined : await previousSetup(client, workflowId);
  const existing = previous
    ? { endpointId: previous.endpointId, url: previous.url, events: previous.events }
    : undefined;
  const input = { url: options.url, events: options.events, ...(existing ? { existing } : {}) };
  return client.workflow.execute<typeof webhookSetupWorkflow>(WorkflowType.webhookSetup, {
    workflowId,
    taskQueue: options.taskQueue,
    args: [input],
    ...webhookSetupStartMetadata(input),
    // Each setup is a new run of the same id; a setup already running is joined (its result awaited above).
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}
