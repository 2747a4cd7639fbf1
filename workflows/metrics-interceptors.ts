import {
  ContinueAsNew,
  isCancellation,
  workflowInfo,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
  type Next,
} from '@temporalio/workflow';
import { metricsSink } from './shared/metrics-sinks.js';

/** The result's `outcome` when it has one (verifications, discoveries, run inputs), else `completed`. */
function outcomeOf(result: unknown): string {
  const outcome = typeof result === 'object' && result !== null ? (result as { outcome?: unknown }).outcome : undefined;
  return typeof outcome === 'string' ? outcome : 'completed';
}

/** Reports how every workflow execution of the worker ended, by type and outcome. */
class WorkflowClosedInterceptor implements WorkflowInboundCallsInterceptor {
  async execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const { workflowType } = workflowInfo();
    try {
      const result = await next(input);
      metricsSink.workflowClosed(workflowType, outcomeOf(result));
      return result;
    } catch (err) {
      // Continuing as new is not an end: the next run reports it.
      if (!(err instanceof ContinueAsNew))
        metricsSink.workflowClosed(workflowType, isCancellation(err) ? 'cancelled' : 'failed');
      throw err;
    }
  }
}

/** Bundled with the workflows (`workflowInterceptorModules` in workers/workflow-bundle.ts). */
export const interceptors = (): WorkflowInterceptors => ({ inbound: [new WorkflowClosedInterceptor()] });
