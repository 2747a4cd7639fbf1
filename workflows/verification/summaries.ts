import { humanDuration } from '../shared/ui-text.js';

// The one-line summaries Temporal UI shows on activity and timer events instead of a bare type or "Timer 2 (7d)".
// Metadata only: a summary rides on the command that schedules the activity or starts the timer, changes no command
// and costs no action. Identifiers and durations only, never a request value.

export const activitySummary = {
  fetchDiscovery: (discoveryId: string, why: string) => `fetch discovery ${discoveryId} (${why})`,
  registerDiscoveryWaiter: (discoveryId: string) =>
    `look at discovery ${discoveryId}; while pending, wait on discovery-${discoveryId}, which fetches it for every waiter`,
  lookupPayer: (payerId: string) => `look up payer ${payerId}`,
  createV2: (idempotencyKey: string) => `create verification v2 (idempotent, key ${idempotencyKey})`,
  createV1: (attempt: number) =>
    `create verification v1 (at most once: never retried blindly${attempt > 1 ? `; attempt ${attempt}` : ''})`,
  updateRun: (flowRunId: string) => `send input for run ${flowRunId} (PUT /v1/runs)`,
  registerWebhook: (url: string) => `register webhook endpoint ${url}`,
  subscribeWebhookEvent: (endpointId: string, event: string) => `subscribe endpoint ${endpointId} to ${event}`,
};

export const timerSummary = {
  discoveryPoll: (discoveryId: string, ms: number) =>
    `wait for discovery ${discoveryId} — next poll in ${humanDuration(ms)} (at once on its webhook)`,
  grace: (ms: number) => `grace period before closing (${humanDuration(ms)}; a run asking for input ends it)`,
  inputDeadline: (ms: number) => `input deadline (${humanDuration(ms)} for every pending run to be answered)`,
  reviewDeadline: (ms: number) => `review deadline (${humanDuration(ms)} for a person to retry, record or abandon)`,
  v1Backoff: (ms: number, failureType: string) =>
    `back off ${humanDuration(ms)} before retrying v1 creation (refused: ${failureType})`,
};
