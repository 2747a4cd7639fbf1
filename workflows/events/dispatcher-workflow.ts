import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  makeContinueAsNewFunc,
  proxyActivities,
  setHandler,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { DisableReason, EventActivities } from './activities.js';
import { takeChore, type Chore } from './chores.js';
import { EndpointQueues, type QueuedDelivery } from './endpoint-queues.js';
import type { OutboundEvent } from '../shared/event-catalogue.js';
import { dispatcherStatusQuery, endpointsSignal, eventSignal, redeliverSignal } from '../shared/event-messages.js';
import {
  DEFAULT_DELIVERY_POLICY,
  DeliveryFailure,
  shardShare,
  type DeliveryPolicy,
  type DispatcherInput,
} from '../shared/event-types.js';
import { ON_CURRENT_VERSION, shouldContinueAsNew } from '../shared/continue-as-new.js';

/**
 * One of a tenant's event dispatchers (docs/integrating/events.md): verifications, batches and patients signal it their
 * events (each to the dispatcher of its shard, `dispatcherOf`), the intake API its active endpoints; it queues each
 * event for every endpoint that takes it and delivers each with one activity on the events task queue, whose retry
 * policy (growing intervals for the window) is Temporal's, so a failing endpoint costs no timer and holds up nothing
 * but its own queue. It waits with no timer, and continues as new, carrying its queues, before its history grows long
 * or when the deployment's current version changes; with no endpoint and nothing to deliver it ends (the next
 * endpoint's signal-with-start begins it again).
 */
export async function eventDispatcherWorkflow(input: DispatcherInput): Promise<void> {
  const { policy } = input;
  // A run an earlier version continued as new names no `maxQueued` (its bound was per endpoint): the default then.
  const book = new EndpointQueues(
    shardShare(policy.concurrency),
    shardShare(policy.maxQueued ?? DEFAULT_DELIVERY_POLICY.maxQueued),
    input.carried,
  );
  const chores: Chore[] = [...(input.carried?.chores ?? [])];
  const scopes = new Map<number, CancellationScope>();
  const keep = (endpointId: string, events: OutboundEvent[], reason?: DisableReason) => {
    if (events.length > 0 || reason) chores.push({ endpointId, events, ...(reason ? { reason } : {}) });
  };
  // The endpoints first: signals that came with the first task are handed to each handler as it is set, and an event
  // taken before the signal-with-start's endpoints would find none to go to.
  let nextPolicy = policy;
  setHandler(endpointsSignal, (update) => {
    if (update.asOf >= book.asOf && update.policy) nextPolicy = update.policy;
    for (const [endpointId, events] of book.update(update)) keep(endpointId, events);
  });
  setHandler(eventSignal, (event) => {
    for (const endpointId of book.accept(event)) keep(endpointId, [event]);
  });
  setHandler(redeliverSignal, ({ endpointId, events, handedOver }) => {
    if (handedOver) keep(endpointId, book.takeOver(endpointId, events));
    else book.redeliver(endpointId, events);
  });
  setHandler(dispatcherStatusQuery, () => book.status(input.tenant, input.shard ?? 0));

  const bookkeeping = proxyActivities<EventActivities>({
    taskQueue: policy.taskQueue,
    startToCloseTimeout: '30 seconds',
    // The database unreachable: retried until it is back; deliveries go on meanwhile.
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  });
  let choring = false;
  const doChores = async () => {
    choring = true;
    try {
      for (let chore = takeChore(chores); chore; chore = takeChore(chores)) {
        if (chore.reason)
          await bookkeeping.disableEndpoint({ ...chore, undelivered: chore.events, reason: chore.reason });
        else await bookkeeping.recordUndelivered(chore);
      }
    } finally {
      choring = false;
    }
  };

  /** A delivery retried by Temporal's retry policy, alone: a failed first attempt, or one carried from an earlier run. */
  const start = (entry: QueuedDelivery) => {
    entry.firstAttemptAt ??= Date.now();
    const { deliverEvent } = proxyActivities<EventActivities>(
      deliveryOptions(policy, entry.firstAttemptAt, Date.now()),
    );
    const scope = new CancellationScope();
    scopes.set(entry.seq, scope);
    scope
      .run(() => deliverEvent({ endpointId: entry.endpointId, event: entry.event }))
      .then(
        () => book.finished(entry),
        (err: unknown) => {
          // Cancelled only to continue as new: the delivery is carried as it stands.
          if (isCancellation(err)) return;
          book.finished(entry);
          const gone =
            err instanceof ActivityFailure &&
            err.cause instanceof ApplicationFailure &&
            err.cause.type === DeliveryFailure.Gone;
          keep(entry.endpointId, [entry.event, ...book.remove(entry.endpointId)], gone ? 'gone' : 'failing');
        },
      )
      .finally(() => scopes.delete(entry.seq));
  };

  /**
   * The first attempts at an endpoint's deliveries that became startable together, in one activity: one task, one
   * database round trip and one completion for them all. Each that fails goes on alone (`start`).
   */
  const startFirst = (endpointId: string, entries: QueuedDelivery[]) => {
    const now = Date.now();
    for (const entry of entries) entry.firstAttemptAt = now;
    const scope = new CancellationScope();
    for (const entry of entries) scopes.set(entry.seq, scope);
    scope
      .run(() => firstAttempts.deliverFirst({ endpointId, events: entries.map((e) => e.event) }))
      .then(
        (outcomes) => {
          if (outcomes.includes('gone')) {
            for (const entry of entries) book.finished(entry);
            const lost = entries.filter((_, i) => outcomes[i] !== 'delivered').map((e) => e.event);
            keep(endpointId, [...lost, ...book.remove(endpointId)], 'gone');
            return;
          }
          entries.forEach((entry, i) => (outcomes[i] === 'failed' ? start(entry) : book.finished(entry)));
        },
        (err: unknown) => {
          // Cancelled only to continue as new: carried as they stand. Otherwise (the worker lost it) tried again alone.
          if (!isCancellation(err)) for (const entry of entries) start(entry);
        },
      )
      .finally(() => {
        for (const entry of entries) if (scopes.get(entry.seq) === scope) scopes.delete(entry.seq);
      });
  };
  const firstAttempts = proxyActivities<EventActivities>({
    taskQueue: policy.taskQueue,
    startToCloseTimeout: policy.attemptTimeoutSeconds * 1000,
    retry: { maximumAttempts: 1 },
    summary: 'deliver events',
  });

  const dueToContinue = () => shouldContinueAsNew(policy.continueAfterEvents);

  for (;;) {
    if (chores.length > 0 && !choring) void doChores();
    // Carried or failed deliveries go on alone; the rest start together, one first attempt per endpoint.
    const firsts = new Map<string, QueuedDelivery[]>();
    for (const entry of book.startable(Date.now())) {
      if (entry.firstAttemptAt !== undefined) start(entry);
      else firsts.set(entry.endpointId, [...(firsts.get(entry.endpointId) ?? []), entry]);
    }
    for (const [endpointId, entries] of firsts) startFirst(endpointId, entries);
    if (book.isEmpty() && chores.length === 0 && !choring) {
      await condition(allHandlersFinished);
      // A signal that came with the last task (an endpoint created meanwhile) keeps it going.
      if (book.isEmpty()) return;
      continue;
    }
    if (dueToContinue()) break;
    await condition(() => (chores.length > 0 && !choring) || book.hasStartable() || book.isEmpty() || dueToContinue());
  }

  // Deliveries started within the last drainSeconds get until drainSeconds after their start to finish (one timer per
  // run, none when there are none); the rest are cancelled and carried. One started earlier and still under way is
  // retrying at an endpoint that fails or never answers: waiting for it would hold up every endpoint's deliveries.
  const drainMs = policy.drainSeconds * 1000;
  const drainFrom = Date.now() - drainMs;
  const fresh = book.startedSince(drainFrom);
  if (fresh.length > 0) {
    const until = Math.max(...fresh) + drainMs;
    await condition(() => book.startedSince(drainFrom).length === 0, Math.max(1, until - Date.now()));
  }
  // Bookkeeping under way finishes; what waits is carried: while events flood a full queue it never runs out.
  await condition(() => !choring);
  for (const scope of scopes.values()) scope.cancel();
  await condition(allHandlersFinished);
  // Taken last: nothing a handler added before this point is left behind.
  const carried = { ...book.carry(), ...(chores.length > 0 ? { chores: chores.splice(0) } : {}) };
  // On the events queue: a dispatcher an earlier version started on the verifications' queue moves there now.
  await makeContinueAsNewFunc<typeof eventDispatcherWorkflow>({
    ...ON_CURRENT_VERSION,
    taskQueue: nextPolicy.taskQueue,
  })({
    ...input,
    policy: nextPolicy,
    carried,
  });
}

/**
 * One delivery's options: each attempt `attemptTimeoutSeconds`, retried with growing intervals until the window from
 * its first attempt ends. A delivery carried across continue-as-new resumes at the interval it had reached.
 */
export function deliveryOptions(policy: DeliveryPolicy, firstAttemptAt: number, now: number): ActivityOptions {
  const elapsed = Math.max(0, now - firstAttemptAt);
  const max = policy.maximumIntervalSeconds * 1000;
  let interval = policy.initialIntervalSeconds * 1000;
  for (let t = 0; t + interval <= elapsed && interval < max;) {
    t += interval;
    interval = Math.min(max, interval * policy.backoffCoefficient);
  }
  const attempt = policy.attemptTimeoutSeconds * 1000;
  return {
    taskQueue: policy.taskQueue,
    startToCloseTimeout: attempt,
    scheduleToCloseTimeout: Math.max(attempt, policy.windowSeconds * 1000 - elapsed),
    retry: {
      initialInterval: interval,
      backoffCoefficient: policy.backoffCoefficient,
      maximumInterval: max,
      nonRetryableErrorTypes: [DeliveryFailure.Gone],
    },
    summary: 'deliver an event',
  };
}
