import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Logger } from '../logging.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { redeliverSignal } from '../../workflows/events/events.js';
import { dispatcherOf } from '../../workflows/events/events.js';
import type { EventDispatchers } from './dispatchers.js';
import type { EventOutbox } from './outbox.js';

interface Handed {
  endpointId: string;
  event: OutboundEvent;
}

/**
 * How long events wait to share one signal to their dispatcher (a failing endpoint's come in a stream, and each signal
 * costs an action and the server's time; their retries wait longer anyway), and the longest wait between failed signals.
 */
const GATHER_MS = 250;
const MAX_BACKOFF_MS = 30_000;

/**
 * Hands events to the tenant's dispatchers (decision 60): those a worker's first attempt did not deliver,
 * those that must follow them, and those the outbox's sweeper took over. Events for one dispatcher gathered within a
 * quarter of a second go as one signal per endpoint (one billed action), and one dispatcher's signals go one at a time,
 * so a verification's events reach it in the order they were handed. A signal that fails is tried again while the
 * process lives; once it has gone, the outbox rows are marked as at the dispatcher.
 */
export class DispatcherHandoff {
  private readonly waiting = new Map<string, Handed[]>();
  private readonly sending = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly client: Client,
    private readonly outbox: EventOutbox,
    /** Starts the tenant's dispatchers when they are not running, then signals (a tenant's first events). */
    private readonly dispatchers: Pick<EventDispatchers, 'redeliver'>,
    private readonly logger: Logger,
  ) {}

  hand(endpointId: string, event: OutboundEvent): void {
    const workflowId = dispatcherOf(event);
    const queue = this.waiting.get(workflowId);
    if (queue) {
      queue.push({ endpointId, event });
      return;
    }
    this.waiting.set(workflowId, [{ endpointId, event }]);
    const before = this.sending.get(workflowId) ?? Promise.resolve();
    const next = before
      .then(() => new Promise((resolve) => setTimeout(resolve, GATHER_MS)))
      .then(() => this.send(workflowId));
    this.sending.set(workflowId, next);
    void next.finally(() => {
      if (this.sending.get(workflowId) === next) this.sending.delete(workflowId);
    });
  }

  /** Resolves once every signal under way has gone (or `timeoutMs` has passed); nothing new is sent after. */
  async close(timeoutMs: number): Promise<void> {
    const all = Promise.all([...this.sending.values()]).then(() => undefined);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    this.closed = true;
  }

  private async send(workflowId: string): Promise<void> {
    const handed = this.waiting.get(workflowId) ?? [];
    this.waiting.delete(workflowId);
    const byEndpoint = new Map<string, OutboundEvent[]>();
    for (const h of handed) byEndpoint.set(h.endpointId, [...(byEndpoint.get(h.endpointId) ?? []), h.event]);
    for (const [endpointId, events] of byEndpoint) {
      for (let backoff = 200; !this.closed; backoff = Math.min(MAX_BACKOFF_MS, backoff * 2)) {
        try {
          await this.signal(workflowId, endpointId, events);
          await this.outbox.handed(
            endpointId,
            events.map((e) => e.id),
          );
          break;
        } catch (err) {
          // The rows stay this process's meanwhile; if it dies, the sweeper hands them over.
          this.logger.warn(
            { error: (err as Error).name, endpointId, events: events.length },
            'events not yet handed to their dispatcher; trying again',
          );
          await new Promise((resolve) => setTimeout(resolve, backoff));
        }
      }
    }
  }

  private async signal(workflowId: string, endpointId: string, events: OutboundEvent[]): Promise<void> {
    try {
      await this.client.workflow
        .getHandle(workflowId)
        .signal(redeliverSignal, { endpointId, events, handedOver: true });
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      // Its dispatchers ended (idle, or never started): started with the tenant's endpoints, then told.
      await this.dispatchers.redeliver(events[0]!.tenant, endpointId, events, { handedOver: true });
    }
  }
}
