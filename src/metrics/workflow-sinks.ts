import type { InjectedSinks } from '@temporalio/worker';
import type { MetricsSinks } from '../../workflows/shared/metrics-sinks.js';
import { recordStageEntered, recordWorkflowClosed } from './project-metrics.js';

/** The worker's side of `workflows/shared/metrics-sinks.ts`: what workflows report, into this process's registry. */
export function metricsSinks(): InjectedSinks<MetricsSinks> {
  return {
    eligibilityMetrics: {
      workflowClosed: { fn: (_info, workflowType, outcome) => recordWorkflowClosed(workflowType, outcome) },
      stageEntered: { fn: (_info, stage) => recordStageEntered(stage) },
    },
  };
}
