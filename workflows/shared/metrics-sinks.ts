import { proxySinks, type Sinks } from '@temporalio/workflow';

/**
 * What workflows report to the worker's Prometheus metrics (src/metrics). Workflow code cannot touch the metrics
 * registry (it runs in the sandbox, and replays); a sink call leaves the sandbox after the activation and, like every
 * sink here, is not made again when the workflow replays, so each event is counted once. Values only from fixed sets.
 */
export interface MetricsSinks extends Sinks {
  eligibilityMetrics: {
    workflowClosed(workflowType: string, outcome: string): void;
    stageEntered(stage: string): void;
  };
}

export const metricsSink = proxySinks<MetricsSinks>().eligibilityMetrics;
