import type { WorkflowHandle } from '@temporalio/client';

/**
 * Whether a verification has registered with its `discovery-<id>`: its `registerDiscoveryWaiter` activity completed.
 * Asked of the verification's history, not of `discovery-<id>`: a run its first waiter started sleeps until its first
 * poll (decision 64) and answers no query before then.
 */
export async function registeredWithDiscovery(verification: WorkflowHandle): Promise<boolean> {
  const events = (await verification.fetchHistory()).events ?? [];
  const registrations = new Set(
    events
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'registerDiscoveryWaiter')
      .map((e) => String(e.eventId)),
  );
  return events.some(
    (e) =>
      e.activityTaskCompletedEventAttributes &&
      registrations.has(String(e.activityTaskCompletedEventAttributes.scheduledEventId)),
  );
}
