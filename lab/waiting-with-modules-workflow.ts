// The same wait, in a bundle that also holds the project's workflow modules: what a workflow still holds of them when
// they are preloaded (shared by every workflow of the worker's reused V8 context).
export { waitingWorkflow } from './waiting-workflow.js';
export * from '../workflows/index.js';
