// The batch family's entry: what clients start. Clients import it as `import type`.
export { batchPageWorkflow } from './batch-page-workflow.js';
export { batchWorkflow } from './batch-workflow.js';
export type { BatchActivities } from './activities.js';
