// The verification family's entry: what clients start and signal. Clients import it as `import type`.
export { runInputWorkflow } from './run-input-workflow.js';
export { verificationWorkflow } from './verification-workflow.js';
export { webhookSetupWorkflow } from './webhook-setup-workflow.js';
export type { VerificationActivities } from './activities.js';
