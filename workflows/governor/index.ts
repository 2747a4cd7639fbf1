// The governor family's entry: what clients start and query. Clients import it as `import type`.
export { governorWorkflow } from './governor-workflow.js';
export type { GovernorActivities } from './activities.js';
