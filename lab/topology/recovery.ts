import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxControl } from '../faults/sandbox-control.js';
import type { SupervisedProcess } from './supervised-process.js';

/** One fault of the run and how the topology came back from it. */
export interface FaultRecord {
  fault: string;
  /** Verifications created at the service (this run) when it struck. */
  createdAt: number;
  faultAt: number;
  /** The component served again (its supervisor's restart, or the operator's, was ready). */
  backAt?: number;
  /** The first verification created at the service after `backAt`: the system as a whole works again. */
  progressAt?: number;
  /** Whether the engine (Temporal) could not serve in between: intake answers then are the outage's. */
  engineDown: boolean;
}

/** Waits for a start of `component` after the `startsBefore`-th to be ready; its ready time. */
export async function backAfterRestart(
  component: SupervisedProcess,
  startsBefore: number,
  timeoutMs: number,
): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const start = component.starts[component.starts.length - 1];
    if (component.starts.length > startsBefore && start?.readyAt !== undefined) return start.readyAt;
    await sleep(100);
  }
  return undefined;
}

/** The first moment from now at which the service has created more than it has now; undefined on timeout. */
export async function progressAfter(sandbox: SandboxControl, timeoutMs: number): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  const before = await createdNow(sandbox);
  while (Date.now() < deadline) {
    const now = await createdNow(sandbox);
    if (now > before) return Date.now();
    await sleep(100);
  }
  return undefined;
}

/** The sandbox's count of creations; the sandbox is never faulted, but retried briefly all the same. */
export async function createdNow(sandbox: SandboxControl): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return (await sandbox.stats()).verificationsCreated;
    } catch (err) {
      if (attempt >= 5) throw err;
      await sleep(200);
    }
  }
}

/** Seconds from the fault, one decimal, or `never` when it did not happen within the run's patience. */
export function secondsAfter(record: FaultRecord, at: number | undefined): string {
  return at === undefined ? 'never' : `${((at - record.faultAt) / 1000).toFixed(1)} s`;
}
