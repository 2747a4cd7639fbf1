// Workflow ids carry meaning and deduplicate: the same caller id never starts a second verification.
export const verificationWorkflowId = (callerIdOrUuid: string) => `verification-${callerIdOrUuid}`;
export const discoveryWorkflowId = (discoveryId: string) => `discovery-${discoveryId}`;
export const runWorkflowId = (flowRunId: string) => `run-${flowRunId}`;
export const webhookSetupWorkflowId = (url: string) => `webhook-setup-${url}`;
