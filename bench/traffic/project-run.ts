import type { Client } from '@temporalio/client';
import { startVerification } from '../../src/temporal/start-verification.js';
import { describeGovernor } from '../../src/temporal/governor.js';
import type { GovernorStatus } from '../../workflows/governor-types.js';
import { forEachLimited } from '../bench-stack.js';
import { processCpuMs, processTree } from '../proc-stats.js';
import { governorActions, verificationOverhead } from './governor-cost.js';
import { followService, type ServiceTrace } from './measure.js';
import type { TrafficStack } from './stack.js';

/** Starts at most this many at once: the client's starts must not be what is timed. */
const START_CONCURRENCY = 50;

export const trafficRequest = (prefix: string, i: number) => ({
  id: `${prefix}-${i}`,
  patient: { firstName: 'Traffic', lastName: 'Bench', dateOfBirth: '01/02/1980', state: 'NY', memberId: `M${i}` },
  payerId: '60054',
  placeOfServiceCode: '11',
  specialtyCode: 'PRC',
});

export interface ProjectRun {
  trace: ServiceTrace;
  /** Worker CPU (all its processes and threads, user + system) per verification. */
  cpuMsPerVerification: number;
  governor: GovernorStatus | undefined;
  /** The governor's billed actions, and those of the work it governed (verifications and their call attempts). */
  governorActions: number;
  workActions: number;
}

/**
 * `count` verifications through a real `eligibility worker` on a fresh task queue (so a fresh governor), with the
 * sandbox's limit at `rps` (set by the caller) and `ELIGIBILITY_MAX_RPS` = `maxRps` or unset; timed from the first
 * start until the sandbox has created the last verification.
 */
export async function runProject(
  stack: TrafficStack,
  options: { maxRps: number | undefined; count: number; maxMs: number; onTick?: (created: number) => Promise<boolean> },
): Promise<ProjectRun> {
  const client: Client = stack.bench.client;
  const { worker, taskQueue } = await stack.startWorker(options.maxRps);
  const pids = () => processTree(worker.pid!);
  const cpu0 = processCpuMs(...pids());
  const t0 = performance.now();
  const starts = forEachLimited(options.count, START_CONCURRENCY, async (i) => {
    await startVerification(client, trafficRequest(taskQueue, i), { taskQueue, timing: { graceSeconds: 0.001 } });
  });
  const [, trace] = await Promise.all([
    starts,
    followService(stack.sandbox, t0, options.count, options.maxMs, options.onTick),
  ]);
  const cpuMsPerVerification = (processCpuMs(...pids()) - cpu0) / Math.max(trace.created, 1);
  const { status } = await describeGovernor(client, taskQueue);
  // Visibility lags a moment behind the last continue-as-new.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const { actions } = await governorActions(client, taskQueue);
  const overhead = await verificationOverhead(client, `verification-${taskQueue}-0`);
  await worker.stop();
  return {
    trace,
    cpuMsPerVerification,
    governor: status,
    governorActions: actions,
    workActions: trace.created * overhead + trace.calls,
  };
}
