import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { SandboxStats } from '../../src/contract/index.js';
import { loadConfig } from '../../src/config.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { createLogger } from '../../src/logging.js';
import type { Timing } from '../../workflows/shared/timing.js';
import { freePort } from '../../src/free-port.js';
import { callIntake } from '../faults/intake-http.js';
import { startBenchStack, startWorkerChild, type BenchStack, type WorkerChild } from '../bench-stack.js';

const BIN = fileURLToPath(new URL('../../bin/eligibility.js', import.meta.url));
const INTAKE_KEY = 'bench-traffic-intake-key-0123456789abcdef';

export interface LanesStackOptions {
  /** The service's rate limit R (requests per second), which the sandbox enforces. */
  rate: number;
  /** `ELIGIBILITY_MAX_RPS`: the limit the workers are told; undefined, none (the governor discovers it). */
  maxRps: number | undefined;
  /** Worker processes polling the one task queue (default 1): one governor sets the rate they share. */
  workers?: number;
  /** `ELIGIBILITY_TENANT_WEIGHTS`, as JSON. */
  tenantWeights?: string;
  /** Port of the intake API (the bench's own range). */
  intakePort: number;
  /** Waiting times of the verifications the intake API starts. */
  timing: Partial<Timing>;
}

/** The bench stack (lab/bench-stack.ts) with the rate limit binding, a real worker process and the intake API. */
export interface LanesStack {
  stack: BenchStack;
  /** The first of `workers`. */
  worker: WorkerChild;
  /** Every worker process, with the port of its `/metrics`. */
  workers: { child: WorkerChild; httpPort: number }[];
  intakeUrl: string;
  /** A call to the intake API with its key: status, body and the milliseconds it took. */
  intake(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: unknown; ms: number }>;
  sandboxStats(): Promise<SandboxStats>;
  /** The runs the sandbox opened for a verification (`GET /sandbox/runs`). */
  sandboxRuns(verificationId: string): Promise<{ flowRunId: string }[]>;
  stop(): Promise<void>;
}

export async function startLanesStack(options: LanesStackOptions): Promise<LanesStack> {
  // The bucket holds one second of calls: a burst above R is refused, as a real service would.
  const stack = await startBenchStack({ sandboxRate: { perSecond: options.rate, burst: options.rate } });
  const workers: { child: WorkerChild; httpPort: number }[] = [];
  let api: FastifyInstance | undefined;
  try {
    const { ELIGIBILITY_MAX_RPS: _told, ...workerEnv } = stack.workerEnv;
    for (let i = 0; i < (options.workers ?? 1); i += 1) {
      // Its metrics and probes on a port of its own: another bench may run beside this one.
      const httpPort = await freePort();
      const child = startWorkerChild([BIN, 'worker'], {
        ...workerEnv,
        ...(options.maxRps !== undefined ? { ELIGIBILITY_MAX_RPS: String(options.maxRps) } : {}),
        WORKER_SHUTDOWN_GRACE_SECONDS: '0',
        WORKER_HTTP_PORT: String(httpPort),
        ...(options.tenantWeights ? { ELIGIBILITY_TENANT_WEIGHTS: options.tenantWeights } : {}),
      });
      workers.push({ child, httpPort });
      await child.ready;
    }
    const config = loadConfig('intake', {
      INTAKE_API_KEY: INTAKE_KEY,
      LOG_LEVEL: 'warn',
      ...(options.tenantWeights ? { ELIGIBILITY_TENANT_WEIGHTS: options.tenantWeights } : {}),
    });
    api = createIntakeApi({
      config,
      client: stack.client,
      taskQueue: stack.taskQueue,
      logger: createLogger(config),
      timing: options.timing,
    });
    const intakeUrl = (await api.listen({ host: '127.0.0.1', port: options.intakePort })).replace(/\/$/, '');
    const sandboxGet = async (path: string) => (await fetch(`${stack.sandboxUrl}${path}`)).json() as Promise<unknown>;
    const started = { stack, workers, api };
    return {
      stack,
      worker: workers[0]!.child,
      workers,
      intakeUrl,
      intake: (method, path, body, headers) =>
        callIntake({ url: intakeUrl, apiKey: INTAKE_KEY }, method, path, body, headers),
      sandboxStats: async () => SandboxStats.parse(await sandboxGet('/sandbox/stats')),
      sandboxRuns: async (verificationId) =>
        (await sandboxGet(`/sandbox/runs?verificationId=${encodeURIComponent(verificationId)}`)) as {
          flowRunId: string;
        }[],
      async stop() {
        await started.api.close();
        for (const { child } of started.workers) await child.stop();
        await started.stack.stop();
      },
    };
  } catch (err) {
    await api?.close();
    for (const { child } of workers) await child.stop();
    await stack.stop();
    throw err;
  }
}

/** A v2 request the sandbox's seed verifies; `specialtyCode: 'ABA'` opens a run that asks for input. */
export function benchRequest(id: string | undefined, specialtyCode = 'PRC'): Record<string, unknown> {
  return {
    ...(id ? { id } : {}),
    patient: { firstName: 'Avery', lastName: 'Quinn', dateOfBirth: '04/12/1987', state: 'WA', memberId: 'M123456' },
    payerId: '60054',
    placeOfServiceCode: '11',
    specialtyCode,
  };
}

/** A batch's items started, and those past `created` (visibility: their `VerificationStage`). */
export async function batchItemCounts(
  lanes: LanesStack,
  batchId: string,
): Promise<{ started: number; created: number }> {
  const count = async (query: string) => (await lanes.stack.client.workflow.count(query)).count;
  const batch = `WorkflowType = 'verificationWorkflow' AND BatchId = '${batchId}'`;
  return {
    started: await count(batch),
    created: await count(`${batch} AND VerificationStage IN ('created', 'completed')`),
  };
}

/** The p-th percentile (nearest rank) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
