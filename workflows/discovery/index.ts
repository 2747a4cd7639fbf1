// The discovery family's entry for the worker's bundle.
export { discoveryWorkflow } from './discovery-workflow.js';
