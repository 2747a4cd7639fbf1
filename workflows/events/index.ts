// The events family's entry: what workers register. Clients import it as `import type`.
export { eventDispatcherWorkflow } from './dispatcher-workflow.js';
export type { EventActivities, Handover } from './events.js';
