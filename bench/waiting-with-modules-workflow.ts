// The same wait, in a bundle that also holds the project's workflow modules: with reuseV8Context every workflow
// instantiates the modules of its bundle for itself, so this costs each cached workflow their module-level objects.
export { waitingWorkflow } from './waiting-workflow.js';
export * from '../workflows/index.js';
