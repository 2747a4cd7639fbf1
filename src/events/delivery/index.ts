import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../../logging.js';
import type { Handover } from '../../../workflows/events/events.js';
import type { OutboundEvent } from '../../../workflows/shared/event-catalogue.js';
import type { EventServices } from '../services.js';
import { Deliverer } from './deliverer.js';
import type { DeliveryPolicy } from './policy.js';

export { DEFAULT_DELIVERY_POLICY, deliveryPolicy, type DeliveryPolicy } from './policy.js';
export { EventOutbox } from './outbox.js';

/** How often events past their retention, and an earlier version's leftover rows, are deleted. */
const PURGE_INTERVAL_MS = 3600_000;
/** An earlier version's `handed` row this old: its dispatcher gave up long ago (3 days at most). */
const LEFTOVERS_KEPT_MS = 7 * 24 * 3600_000;

/**
 * Outbound events in a worker (docs/developing/event-delivery.md): what its workflows emit is kept in the outbox, and
 * its deliverer delivers from the outbox, with every other worker's. The one path an event takes.
 */
export class EventDelivery {
  private readonly deliverer: Deliverer;
  private purgeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly services: EventServices,
    private readonly logger: Logger,
    policy: DeliveryPolicy,
  ) {
    this.deliverer = new Deliverer({
      ...services,
      logger,
      policy,
      owner: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    });
  }

  /** The workflows' local activity: the event kept and queued before the workflow task completes, then delivered. */
  async emit(event: OutboundEvent): Promise<void> {
    if ((await this.services.outbox.enqueue(event)) > 0) this.deliverer.wake();
  }

  /** What an earlier version's dispatcher held, queued in the outbox; its bookkeeping done (decision 80). */
  async takeOver({ pending, emitted, chores }: Handover): Promise<void> {
    const { outbox, endpoints, log } = this.services;
    for (const event of emitted) await outbox.enqueue(event);
    for (const p of pending) {
      await log.keep(p.event);
      await outbox.requeue(
        p.endpointId,
        [p.event],
        p.firstAttemptAt !== undefined ? new Date(p.firstAttemptAt) : undefined,
      );
    }
    for (const chore of chores) {
      await log.keepUndelivered(chore.endpointId, chore.events);
      if (
        chore.reason &&
        (await endpoints.disable(chore.endpointId, chore.reason, chore.at ? new Date(chore.at) : undefined))
      )
        await outbox.setAside(chore.endpointId);
    }
    this.deliverer.wake();
  }

  /** Starts delivering, and purging what is past its retention (at once, then hourly; idempotent across workers). */
  start(): void {
    this.deliverer.start();
    const purge = () =>
      Promise.all([this.services.log.purge(), this.services.outbox.purgeLeftovers(LEFTOVERS_KEPT_MS)]).then(
        ([deleted]) => deleted > 0 && this.logger.info({ deleted }, 'events past their retention deleted'),
        (err: unknown) =>
          this.logger.warn({ error: (err as Error).name }, 'events purge failed; tried again within the hour'),
      );
    void purge();
    this.purgeTimer = setInterval(() => void purge(), PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
  }

  /** Stops claiming, and lets attempts under way finish (`timeoutMs` at most; their claims lapse for others). */
  async close(timeoutMs: number): Promise<void> {
    clearInterval(this.purgeTimer);
    await this.deliverer.stop(timeoutMs);
  }
}
