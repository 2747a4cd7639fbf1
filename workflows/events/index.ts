// The events family's entry: what clients start and signal. Clients import it as `import type`.
export { eventDispatcherWorkflow } from './dispatcher-workflow.js';
export type { DisableReason, EventActivities, FirstAttempt } from './activities.js';
