import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { OutboundEvent } from '../shared/event-catalogue.js';
import type { DisableReason, EventActivities } from './activities.js';
import { takeChore, type Chore } from './chores.js';
import { deliveryOptions } from './delivery-options.js';
import { EndpointQueues, type QueuedDelivery } from './endpoint-queues.js';
import {
  DEFAULT_DELIVERY_POLICY,
  DeliveryFailure,
  dispatcherStatusQuery,
  endpointsSignal,
  eventSignal,
  redeliverSignal,
  shardShare,
  type DeliveryPolicy,
  type DispatcherInput,
} from './events.js';

/**
 * A dispatcher's record: its queues per endpoint, the deliveries under way (each in a cancellation scope, so a
 * continue-as-new can carry it), the bookkeeping chores (undelivered events kept, endpoints disabled) and its handlers.
 * The workflow function is the loop that starts what is startable and moves on.
 */
export class Dispatcher {
  readonly book: EndpointQueues;
  readonly chores: Chore[];
  /** The policy the next run takes: an endpoints update may carry a new one. */
  nextPolicy: DeliveryPolicy;
  private readonly scopes = new Map<number, CancellationScope>();
  private choring = false;
  private readonly bookkeeping: EventActivities;
  private readonly firstAttempts: EventActivities;

  constructor(private readonly input: DispatcherInput) {
    const { policy } = input;
    this.nextPolicy = policy;
    // A run an earlier version continued as new names no `maxQueued` (its bound was per endpoint): the default then.
    const book = (this.book = new EndpointQueues(
      shardShare(policy.concurrency),
      shardShare(policy.maxQueued ?? DEFAULT_DELIVERY_POLICY.maxQueued),
      input.carried,
    ));
    this.chores = [...(input.carried?.chores ?? [])];
    // The endpoints first: signals that came with the first task are handed to each handler as it is set, and an event
    // taken before the signal-with-start's endpoints would find none to go to.
    setHandler(endpointsSignal, (update) => {
      if (update.asOf >= book.asOf && update.policy) this.nextPolicy = update.policy;
      for (const [endpointId, events] of book.update(update)) this.keep(endpointId, events);
    });
    setHandler(eventSignal, (event) => {
      for (const endpointId of book.accept(event)) this.keep(endpointId, [event]);
    });
    setHandler(redeliverSignal, ({ endpointId, events, handedOver }) => {
      if (handedOver) this.keep(endpointId, book.takeOver(endpointId, events));
      else book.redeliver(endpointId, events);
    });
    setHandler(dispatcherStatusQuery, () => book.status(input.tenant, input.shard ?? 0));
    this.bookkeeping = proxyActivities<EventActivities>({
      taskQueue: policy.taskQueue,
      startToCloseTimeout: '30 seconds',
      // The database unreachable: retried until it is back; deliveries go on meanwhile.
      retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
    });
    this.firstAttempts = proxyActivities<EventActivities>({
      taskQueue: policy.taskQueue,
      startToCloseTimeout: policy.attemptTimeoutSeconds * 1000,
      retry: { maximumAttempts: 1 },
      summary: 'deliver events',
    });
  }

  /** Chores wait to be done, and none is under way. */
  get choresDue(): boolean {
    return this.chores.length > 0 && !this.choring;
  }

  /** Nothing queued, under way or left to keep. */
  get idle(): boolean {
    return this.book.isEmpty() && this.chores.length === 0 && !this.choring;
  }

  /** Starts what is startable: carried or failed deliveries alone, the rest together, one first attempt per endpoint. */
  startDeliveries(): void {
    if (this.choresDue) void this.doChores();
    const firsts = new Map<string, QueuedDelivery[]>();
    for (const entry of this.book.startable(Date.now())) {
      if (entry.firstAttemptAt !== undefined) this.start(entry);
      else firsts.set(entry.endpointId, [...(firsts.get(entry.endpointId) ?? []), entry]);
    }
    for (const [endpointId, entries] of firsts) this.startFirst(endpointId, entries);
  }

  /**
   * Before continuing as new: deliveries started within the last drainSeconds get until drainSeconds after their start
   * to finish (one timer per run, none when there are none); the rest are cancelled and carried. One started earlier
   * and still under way is retrying at an endpoint that fails or never answers: waiting for it would hold up every
   * endpoint's deliveries. Bookkeeping under way finishes; what waits is carried.
   */
  async carry(): Promise<NonNullable<DispatcherInput['carried']>> {
    const drainMs = this.input.policy.drainSeconds * 1000;
    const drainFrom = Date.now() - drainMs;
    const fresh = this.book.startedSince(drainFrom);
    if (fresh.length > 0) {
      const until = Math.max(...fresh) + drainMs;
      await condition(() => this.book.startedSince(drainFrom).length === 0, Math.max(1, until - Date.now()));
    }
    await condition(() => !this.choring);
    for (const scope of this.scopes.values()) scope.cancel();
    await condition(allHandlersFinished);
    // Taken last: nothing a handler added before this point is left behind.
    return { ...this.book.carry(), ...(this.chores.length > 0 ? { chores: this.chores.splice(0) } : {}) };
  }

  private keep(endpointId: string, events: OutboundEvent[], reason?: DisableReason): void {
    if (events.length > 0 || reason)
      this.chores.push({ endpointId, events, ...(reason ? { reason, at: Date.now() } : {}) });
  }

  private async doChores(): Promise<void> {
    this.choring = true;
    try {
      for (let chore = takeChore(this.chores); chore; chore = takeChore(this.chores)) {
        if (chore.reason) {
          await this.bookkeeping.disableEndpoint({ ...chore, undelivered: chore.events, reason: chore.reason });
        } else await this.bookkeeping.recordUndelivered(chore);
      }
    } finally {
      this.choring = false;
    }
  }

  /** A delivery retried by Temporal's retry policy, alone: a failed first attempt, or one carried from an earlier run. */
  private start(entry: QueuedDelivery): void {
    const { book } = this;
    entry.firstAttemptAt ??= Date.now();
    const { deliverEvent } = proxyActivities<EventActivities>(
      deliveryOptions(this.input.policy, entry.firstAttemptAt, Date.now()),
    );
    const scope = new CancellationScope();
    this.scopes.set(entry.seq, scope);
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
          this.keep(entry.endpointId, [entry.event, ...book.remove(entry.endpointId)], gone ? 'gone' : 'failing');
        },
      )
      .finally(() => this.scopes.delete(entry.seq));
  }

  /**
   * The first attempts at an endpoint's deliveries that became startable together, in one activity: one task, one
   * database round trip and one completion for them all. Each that fails goes on alone (`start`).
   */
  private startFirst(endpointId: string, entries: QueuedDelivery[]): void {
    const { book } = this;
    const now = Date.now();
    for (const entry of entries) entry.firstAttemptAt = now;
    const scope = new CancellationScope();
    for (const entry of entries) this.scopes.set(entry.seq, scope);
    scope
      .run(() => this.firstAttempts.deliverFirst({ endpointId, events: entries.map((e) => e.event) }))
      .then(
        (outcomes) => {
          if (outcomes.includes('gone')) {
            for (const entry of entries) book.finished(entry);
            const lost = entries.filter((_, i) => outcomes[i] !== 'delivered').map((e) => e.event);
            this.keep(endpointId, [...lost, ...book.remove(endpointId)], 'gone');
            return;
          }
          entries.forEach((entry, i) => (outcomes[i] === 'failed' ? this.start(entry) : book.finished(entry)));
        },
        (err: unknown) => {
          // Cancelled only to continue as new: carried as they stand. Otherwise (the worker lost it) tried again alone.
          if (!isCancellation(err)) for (const entry of entries) this.start(entry);
        },
      )
      .finally(() => {
        for (const entry of entries) if (this.scopes.get(entry.seq) === scope) this.scopes.delete(entry.seq);
      });
  }
}
