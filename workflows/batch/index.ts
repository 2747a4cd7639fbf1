// The batch family's workflows, for the worker's bundle (every export is registered). Clients import `batch.ts`.
export { batchPageWorkflow } from './batch-page-workflow.js';
export { batchWorkflow } from './batch-workflow.js';
