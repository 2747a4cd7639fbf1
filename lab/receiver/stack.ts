import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { freePort } from '../../src/free-port.js';
import { WEBHOOK_PATH } from '../../apps/receiver/index.js';
import { SIGNATURE_HEADER } from '../../src/contract/index.js';
import { signWebhook } from '../../src/contract/webhook-signature.js';
import { signalDiscoveryUpdated } from '../../src/temporal/discovery-updated.js';
import { startBenchStack, startWorkerChild, type BenchStack, type WorkerChild } from '../bench-stack.js';

const SECRET = 'whsec_bench_receiver_0123456789abcdef';
const WORKER = fileURLToPath(new URL('../worker-child.ts', import.meta.url));
const CLI = fileURLToPath(new URL('../../apps/cli/main.ts', import.meta.url));
const PATIENT = { firstName: 'Grace', lastName: 'Hopper', dateOfBirth: '12/09/1976', state: 'NY' };

/**
 * What `bench:receiver` runs against: the bench stack (its own dev server, the sandbox, an encrypting client), the
 * project's worker in a child process, and `eligibility receiver` in another, as production runs it (signatures
 * checked, its 4 s Temporal deadline, its logging at the default level), so this process's load is not the receiver's.
 */
export interface ReceiverStack {
  stack: BenchStack;
  worker: WorkerChild;
  receiverUrl: string;
  /** `eligibility receiver`'s process, whose CPU the bench reads. */
  receiverPid: number;
  stop(): Promise<void>;
}

async function startReceiverChild(env: Record<string, string>, healthUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), CLI, 'receiver'], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`eligibility receiver exited (${child.exitCode})`);
    const answered = await fetch(healthUrl, { signal: AbortSignal.timeout(1000) }).then(
      (res) => res.body?.cancel().then(() => true) ?? true,
      () => false,
    );
    if (answered) return child;
    if (Date.now() > deadline) throw new Error('eligibility receiver did not answer within 60 s');
    await sleep(250);
  }
}

export async function startReceiverStack(): Promise<ReceiverStack> {
  const stack = await startBenchStack();
  const worker = startWorkerChild(['--import', import.meta.resolve('tsx'), WORKER, 'verification'], stack.workerEnv);
  await worker.ready;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { LOG_LEVEL: _quiet, ...env } = stack.workerEnv;
  const receiver = await startReceiverChild(
    { ...env, WEBHOOK_HOST: '127.0.0.1', WEBHOOK_PORT: String(port), WEBHOOK_SIGNING_SECRET: SECRET },
    `${base}/healthz`,
  );
  const exited = new Promise<void>((resolve) => receiver.once('exit', () => resolve()));
  return {
    stack,
    worker,
    receiverUrl: `${base}${WEBHOOK_PATH}`,
    receiverPid: receiver.pid!,
    async stop() {
      receiver.kill('SIGTERM');
      await exited;
      await worker.stop();
      await stack.stop();
    },
  };
}

/**
 * A discovery at the sandbox: pending until `completeDiscovery`, or complete at once (`complete`), as the discovery a
 * `discovery.updated` delivery usually announces: its `discovery-<id>` fetches it once and closes, leaving no polls.
 */
export async function newDiscovery(stack: BenchStack, complete = false): Promise<string> {
  const res = await fetch(`${stack.sandboxUrl}/sandbox/discoveries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...PATIENT, delayMs: complete ? 0 : -1 }),
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
  // undici's `request`, not `fetch`: the service sends from its own machines, so this stand-in should take as little of
  // this one's CPU as it can (0.05–0.11 ms a call against fetch's 0.51–0.80, decision 65).
  const res = await request(receiverUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(SECRET, Date.now() / 1000, body) },
    body,
  });
  await res.body.dump();
  return res.statusCode;
}

/** The receiver's one call made bare: the same signal-with-start, from a client in this process. */
export async function bareSignalWithStart(stack: BenchStack, discoveryId: string, eventId: string): Promise<void> {
  await signalDiscoveryUpdated(stack.client, stack.taskQueue, { discoveryId, eventId });
}
