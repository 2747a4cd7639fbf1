// The workflows the worker registers. Only workflow functions are exported here: the bundler registers every export.
export { batchPageWorkflow } from './batch-page-workflow.js';
export { batchWorkflow } from './batch-workflow.js';
export { discoveryWorkflow } from './discovery-workflow.js';
export { runInputWorkflow } from './run-input-workflow.js';
export { verificationWorkflow } from './verification-workflow.js';
export { webhookSetupWorkflow } from './webhook-setup-workflow.js';
export { governorWorkflow } from './governor-workflow.js';
