// The refresh family's entry (issue 35): clients import it as `import type`.
export { refreshWorkflow } from './refresh-workflow.js';
export type { RefreshActivities } from './activities.js';
