import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { GovernorStatus, OutcomeReport } from './governor-types.js';

// Messages of the traffic governor (docs/developing/traffic.md), defined once for the workflow, the workers and the
// CLI.

/** The governor of a task queue: one per queue, whatever the number of workers (a fixed id; starts deduplicate). */
export const governorWorkflowId = (taskQueue: string) => `governor-${taskQueue}`;

/** A worker's aggregated call outcomes over an interval (sent with signal-with-start: one per worker per interval). */
export const outcomeReportSignal = defineSignal<[OutcomeReport]>('outcomeReport');

/** The current rate, the limit last met and the last change (a query is a billed action: for people, not polling). */
export const governorStatusQuery = defineQuery<GovernorStatus>('status');
