import type { temporal } from '@temporalio/proto';

/** What both the client's `Connection` and the worker's `NativeConnection` offer to ask the server something. */
export interface TemporalProbe {
  workflowService: Pick<temporal.api.workflowservice.v1.WorkflowService, 'getSystemInfo'>;
  withDeadline<R>(deadline: number | Date, fn: () => Promise<R>): Promise<R>;
}

/**
 * Whether the Temporal server answers within `timeoutMs`: `GetSystemInfo` is the cheapest call every server and
 * Temporal Cloud accept, and needs no namespace permission. Any failure (unreachable, deadline, refused) is "no".
 */
export async function temporalReachable(probe: TemporalProbe, timeoutMs: number): Promise<boolean> {
  try {
    await probe.withDeadline(Date.now() + timeoutMs, () => probe.workflowService.getSystemInfo({}));
    return true;
  } catch {
    return false;
  }
}
