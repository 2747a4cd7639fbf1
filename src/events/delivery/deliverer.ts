import type { Logger } from '../../logging.js';
import { recordEndpointDisabled } from '../../metrics/project-metrics.js';
import type { EventEndpoints } from '../endpoints.js';
import type { EventLog } from '../event-log.js';
import { attemptDelivery, attemptRecord, type Attempt } from './attempt.js';
import type { ClaimedDelivery, EventOutbox } from './outbox.js';
import { nextAttemptAt, type DeliveryPolicy } from './policy.js';

export interface DelivererDeps {
  outbox: EventOutbox;
  log: Pick<EventLog, 'recordAttempt'>;
  endpoints: Pick<EventEndpoints, 'disable' | 'isActive'>;
  logger: Logger;
  policy: DeliveryPolicy;
  /** This worker's name on the rows it claims. */
  owner: string;
}

/** Beyond an attempt's timeout: time to record its outcome before another worker may claim the row. */
const LEASE_MARGIN_MS = 30_000;

/**
 * A worker's deliverer (docs/developing/event-delivery.md): it claims due deliveries from the outbox, makes one signed
 * attempt at each, and settles it there: delivered, tried again later, or, once an endpoint answers 410 or has failed
 * for the whole window, the endpoint disabled and what was queued for it set aside as undelivered. It looks every
 * `pollMs`, and at once when woken (this worker kept an event, or an attempt freed a slot).
 */
export class Deliverer {
  private readonly attempts = new Set<Promise<void>>();
  private stopped = false;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private loop: Promise<void> | undefined;

  constructor(private readonly deps: DelivererDeps) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Looks for due deliveries now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Claims nothing more, and lets attempts under way finish (`timeoutMs` at most; their leases cover the rest). */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    await Promise.race([Promise.all(this.attempts), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  }

  private async run(): Promise<void> {
    const { policy, outbox, logger, owner } = this.deps;
    while (!this.stopped) {
      this.woken = false;
      const free = policy.maxUnderWay - this.attempts.size;
      let claimed: ClaimedDelivery[] = [];
      if (free > 0) {
        try {
          claimed = await outbox.claim(owner, {
            limit: free,
            concurrency: policy.concurrency,
            leaseMs: policy.attemptTimeoutMs + LEASE_MARGIN_MS,
          });
        } catch (err) {
          logger.warn({ error: (err as Error).name }, 'the outbox could not be read; tried again shortly');
        }
      }
      for (const d of claimed) this.track(this.deliver(d));
      // A full claim may have left more due: look again at once.
      if (claimed.length > 0 && claimed.length === free) continue;
      if (!this.woken && !this.stopped) await this.sleep(policy.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = undefined;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
    });
  }

  private track(attempt: Promise<void>): void {
    this.attempts.add(attempt);
    void attempt.finally(() => {
      this.attempts.delete(attempt);
      this.wake();
    });
  }

  /** One attempt, recorded and settled; a failure to settle leaves the row to be claimed again when its lease ends. */
  private async deliver(d: ClaimedDelivery): Promise<void> {
    const { policy } = this.deps;
    const a = await attemptDelivery(d.endpoint, d.event, policy.attemptTimeoutMs);
    try {
      await this.settle(d, a);
    } catch (err) {
      this.deps.logger.warn(
        { error: (err as Error).name, endpointId: d.endpointId, eventId: d.event.id },
        'a delivery attempt could not be settled; it is tried again when its claim ends',
      );
    }
  }

  private async settle(d: ClaimedDelivery, a: Attempt): Promise<void> {
    const { outbox, log, policy } = this.deps;
    const now = Date.now();
    const retryAt = nextAttemptAt(policy, d.attempts + 1, now);
    const record = attemptRecord(d.endpointId, d.event, a, retryAt);
    if (a.outcome === 'delivered') return outbox.delivered(d, record);
    await log.recordAttempt(record);
    if (a.outcome === 'gone' && (await this.stopEndpoint(d, 'gone', a.attemptedAt))) return;
    const firstFailedAt = d.firstFailedAt ?? a.attemptedAt;
    if (now - firstFailedAt.getTime() >= policy.windowMs && (await this.stopEndpoint(d, 'failing', a.attemptedAt)))
      return;
    await outbox.retryAt(d, retryAt, firstFailedAt);
  }

  /**
   * Disables the endpoint for a failure seen at `seenAt` and sets aside what was queued for it; false when it was
   * changed since (re-enabled or corrected: the delivery is simply tried again).
   */
  private async stopEndpoint(d: ClaimedDelivery, reason: 'gone' | 'failing', seenAt: Date): Promise<boolean> {
    const { endpoints, outbox, logger } = this.deps;
    const disabled = await endpoints.disable(d.endpointId, reason, seenAt);
    if (!disabled && (await endpoints.isActive(d.endpointId))) return false;
    const undelivered = await outbox.setAside(d.endpointId);
    if (disabled) {
      recordEndpointDisabled(reason);
      logger.warn(
        { endpointId: d.endpointId, reason, undelivered },
        reason === 'gone'
          ? 'event endpoint disabled: it answered 410 Gone'
          : 'event endpoint disabled: every delivery failed for the whole retry window',
      );
    }
    return true;
  }
}
