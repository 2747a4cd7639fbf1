import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createWebhookReceiver, WEBHOOK_PATH } from '../../apps/receiver/index.js';
import { SIGNATURE_HEADER } from '../../src/contract/index.js';
import { signWebhook } from '../../src/contract/webhook-signature.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { discoveryWorkflowId } from '../../workflows/shared/ids.js';
import { discoveryUpdatedSignal } from '../../workflows/shared/messages.js';
import { DiscoveryId } from '../../workflows/shared/search-attributes.js';
import { discoveryStartMetadata } from '../../workflows/shared/start-metadata.js';
import type { DiscoveryUpdated } from '../../workflows/shared/types.js';
import type { discoveryWorkflow } from '../../workflows/verification/index.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { startBenchStack, startWorkerChild, type BenchStack, type WorkerChild } from '../bench-stack.js';

const SECRET = 'whsec_bench_receiver_0123456789abcdef';
const WORKER = fileURLToPath(new URL('../worker-child.ts', import.meta.url));
const PATIENT = { firstName: 'Grace', lastName: 'Hopper', dateOfBirth: '12/09/1976', state: 'NY' };

/**
 * What `bench:receiver` runs against: the bench stack (its own dev server, the sandbox, an encrypting client), the
 * project's worker in a child process, and the webhook receiver in this process on a free port, as `eligibility
 * receiver` builds it (signatures checked, 4 s Temporal deadline).
 */
export interface ReceiverStack {
  stack: BenchStack;
  worker: WorkerChild;
  receiver: FastifyInstance;
  receiverUrl: string;
  stop(): Promise<void>;
}

export async function startReceiverStack(): Promise<ReceiverStack> {
  const stack = await startBenchStack();
  const worker = startWorkerChild(['--import', import.meta.resolve('tsx'), WORKER, 'verification'], stack.workerEnv);
  await worker.ready;
  const config = loadConfig({ WEBHOOK_SIGNING_SECRET: SECRET, LOG_LEVEL: 'silent' });
  const receiver = createWebhookReceiver({
    config,
    client: stack.client,
    taskQueue: stack.taskQueue,
    logger: createLogger(config),
  });
  const address = (await receiver.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
  return {
    stack,
    worker,
    receiver,
    receiverUrl: `${address}${WEBHOOK_PATH}`,
    async stop() {
      await receiver.close();
      await worker.stop();
      await stack.stop();
    },
  };
}

/** A discovery at the sandbox that stays pending until `completeDiscovery`. */
export async function pendingDiscovery(stack: BenchStack): Promise<string> {
  const res = await fetch(`${stack.sandboxUrl}/sandbox/discoveries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...PATIENT, delayMs: -1 }),
  });
  return ((await res.json()) as { discoveryId: string }).discoveryId;
}

export async function completeDiscovery(stack: BenchStack, discoveryId: string): Promise<void> {
  const res = await fetch(`${stack.sandboxUrl}/sandbox/discoveries/${encodeURIComponent(discoveryId)}/complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ successful: true }),
  });
  if (!res.ok) throw new Error(`completing a discovery: ${res.status}`);
}

/** A signed `sandbox.discovery.updated` delivery, as the service sends it; resolves to the receiver's status. */
export async function deliver(receiverUrl: string, discoveryId: string, eventId: string): Promise<number> {
  const body = JSON.stringify({
    id: eventId,
    type: 'sandbox.discovery.updated',
    created: new Date().toISOString(),
    data: { discoveryId, status: 'complete' },
  });
  const res = await fetch(receiverUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(SECRET, Date.now() / 1000, body) },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** The receiver's one call made bare: the same signal-with-start, from a client in this process. */
export async function bareSignalWithStart(stack: BenchStack, discoveryId: string, eventId: string): Promise<void> {
  await stack.client.workflow.signalWithStart<typeof discoveryWorkflow, [DiscoveryUpdated]>(WorkflowType.discovery, {
    workflowId: discoveryWorkflowId(discoveryId),
    taskQueue: stack.taskQueue,
    args: [{ discoveryId }],
    signal: discoveryUpdatedSignal,
    signalArgs: [{ discoveryId, eventId }],
    typedSearchAttributes: [{ key: DiscoveryId, value: discoveryId }],
    ...discoveryStartMetadata({ discoveryId }),
  });
}
