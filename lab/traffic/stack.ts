import { randomBytes } from 'node:crypto';
import { envArgs, startBenchStack, type BenchStack } from '../bench-stack.js';
import { SandboxControl } from '../faults/sandbox-control.js';
import { WorkerChild } from '../faults/worker-child.js';
import { loadConfig, type ServiceConfig } from '../../src/config.js';

/**
 * What every traffic scenario runs against: the bench stack (its own dev server, the sandbox in this process, an
 * encrypting client), the sandbox driven over HTTP like any client (its rate limit R moved per run), and real
 * `eligibility worker` processes, each run on a task queue of its own so its governor starts from nothing.
 */
export interface TrafficStack {
  bench: BenchStack;
  sandbox: SandboxControl;
  /** The service settings a direct client (the naive peer) uses: the same sandbox, the same client id and bucket. */
  service: ServiceConfig;
  /**
   * Workflows of a verification's shape a second that the engine reached on this machine with no-op activities, once
   * the `engine` scenario has run (lab/traffic/engine-ceiling.ts).
   */
  engineCeiling?: number;
  /** Resets the sandbox (state, stats, buckets) and sets its limit to `rps` a second with a one-second burst. */
  resetSandbox(rps: number): Promise<void>;
  /** A worker on a new task queue, polling; `maxRps` undefined = no ELIGIBILITY_MAX_RPS (the governor discovers). */
  startWorker(
    maxRps: number | undefined,
    env?: Record<string, string>,
  ): Promise<{ worker: WorkerChild; taskQueue: string }>;
  stop(): Promise<void>;
}

export async function startTrafficStack(): Promise<TrafficStack> {
  const bench = await startBenchStack();
  const sandbox = new SandboxControl(bench.sandboxUrl);
  const service = loadConfig('worker', { ...process.env, ELIGIBILITY_BASE_URL: bench.sandboxUrl }).service;
  const workers: WorkerChild[] = [];
  const stack: TrafficStack = {
    bench,
    sandbox,
    service,
    async resetSandbox(rps) {
      await sandbox.reset();
      // A one-second burst: R calls a second and no more, the strictest reading of "R requests/s".
      await sandbox.setRateLimit({ ratePerSecond: rps, burst: Math.max(1, Math.round(rps)) });
    },
    async startWorker(maxRps, env = {}) {
      const taskQueue = `traffic-${randomBytes(3).toString('hex')}`;
      const { ELIGIBILITY_MAX_RPS: _unset, ...workerEnv } = bench.workerEnv;
      const worker = new WorkerChild({
        ...workerEnv,
        TEMPORAL_TASK_QUEUE: taskQueue,
        ...(maxRps === undefined ? {} : { ELIGIBILITY_MAX_RPS: String(maxRps) }),
        WORKER_SHUTDOWN_GRACE_SECONDS: '0',
        // `--env NAME=value` on the command line, e.g. WORKER_MAX_CACHED_WORKFLOWS=1000.
        ...envArgs(),
        ...env,
      });
      workers.push(worker);
      await worker.start();
      return { worker, taskQueue };
    },
    async stop() {
      for (const worker of workers) await worker.stop();
      await bench.stop();
    },
  };
  return stack;
}
