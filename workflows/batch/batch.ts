// The batch family's entry for clients (src/batches, the intake API, the console, the CLI, its activities): its ids,
// messages, timing and types, and the types of its workflows and activity port. Importing it runs no workflow code.
export * from './ids.js';
export * from './messages.js';
export * from './timing.js';
export * from './batch-types.js';
export * from './page-types.js';
export type { BatchCounts, VisibleItemCounts } from '../shared/batch-counts.js';
export type { batchWorkflow } from './batch-workflow.js';
export type { batchPageWorkflow } from './batch-page-workflow.js';
export type { BatchActivities } from './activities.js';
