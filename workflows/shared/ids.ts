// Workflow ids carry meaning and deduplicate: the same caller id never starts a second verification.
export const verificationWorkflowId = (callerIdOrUuid: string) => `verification-${callerIdOrUuid}`;
export const discoveryWorkflowId = (discoveryId: string) => `discovery-${discoveryId}`;
export const runWorkflowId = (flowRunId: string) => `run-${flowRunId}`;
export const webhookSetupWorkflowId = (url: string) => `webhook-setup-${url}`;
/** A patient: `patientId` is a keyed hash of tenant and the practice's reference (src/patients), never PHI. */
export const patientWorkflowId = (patientId: string) => `patient-${patientId}`;
/** The patient's n-th verification: derived, so a retried start finds the one it started instead of a second. */
export const patientVerificationWorkflowId = (patientId: string, n: number) => `verification-${patientId}-${n}`;
/** A patient's verification for one refresh: at most one per patient and refresh, whatever repeats the message. */
export const patientRefreshVerificationId = (patientId: string, refreshId: string) =>
  `verification-${patientId}-${refreshId}`;
/** A tenant's refresh schedule, and the base of its refreshes' workflow ids (`refresh-<tenant>-<time>`). */
export const refreshScheduleId = (tenant: string) => `refresh-${tenant}`;
