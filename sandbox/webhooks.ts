import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SIGNATURE_HEADER, type WebhookDelivery, type WebhookEndpoint } from '../src/contract/index.js';
import { signWebhook } from '../src/contract/webhook-signature.js';
import type { SandboxConfig } from './config.js';
import type { Faults } from './faults.js';
import type { SandboxState } from './state.js';
import type { StatsRecorder } from './stats.js';

/** How long deliveries are held when the `webhookReorder` fault is on, before they go out in reverse order. */
export const REORDER_HOLD_MS = 200;

interface Pending {
  url: string;
  delivery: WebhookDelivery;
}

/**
 * Delivers events to every registered endpoint subscribed to them: JSON `{id, type, created, data}`, signed when a
 * secret is configured, retried with doubling backoff on a non-2xx answer, a timeout or a network error. The `data`
 * of an event carries identifiers only, never patient data.
 */
export class WebhookDispatcher {
  private abort = new AbortController();
  private held: Pending[] = [];
  private holdTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: Pick<
      SandboxConfig,
      'webhookSecret' | 'webhookMaxAttempts' | 'webhookTimeoutMs' | 'webhookBackoffMs'
    >,
    private readonly state: SandboxState,
    private readonly faults: Faults,
    private readonly stats: StatsRecorder,
  ) {}

  emit(type: string, data: Record<string, unknown>): void {
    const subscribed = [...this.state.webhookEndpoints.values()].filter((e: WebhookEndpoint) =>
      e.events.includes(type),
    );
    for (const endpoint of subscribed) {
      const delivery: WebhookDelivery = {
        id: `evt_${randomUUID().replaceAll('-', '')}`,
        type,
        created: new Date().toISOString(),
        data,
      };
      if (this.faults.chance('webhookDropRate')) {
        this.stats.addWebhook('dropped');
        continue;
      }
      // A duplicate is the same event (same id) sent twice, as a retry after a lost acknowledgement would be.
      const copies = this.faults.chance('webhookDuplicateRate') ? 2 : 1;
      for (let i = 0; i < copies; i++) this.schedule({ url: endpoint.url, delivery });
    }
  }

  /** Stops every pending delivery and retry (used by reset and close). */
  cancelAll(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.held = [];
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
  }

  private schedule(pending: Pending): void {
    if (!this.faults.settings.webhookReorder) {
      this.start(pending);
      return;
    }
    this.held.push(pending);
    this.holdTimer ??= setTimeout(() => {
      const batch = this.held.reverse();
      this.held = [];
      this.holdTimer = undefined;
      for (const p of batch) this.start(p);
    }, REORDER_HOLD_MS);
  }

  private start(pending: Pending): void {
    void this.deliver(pending, this.abort.signal);
  }

  private async deliver({ url, delivery }: Pending, cancelled: AbortSignal): Promise<void> {
    const body = JSON.stringify(delivery);
    const { webhookSecret, webhookMaxAttempts, webhookTimeoutMs, webhookBackoffMs } = this.config;
    for (let attempt = 1; attempt <= webhookMaxAttempts; attempt++) {
      if (cancelled.aborted) return;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (webhookSecret) headers[SIGNATURE_HEADER] = signWebhook(webhookSecret, Date.now() / 1000, body);
      this.stats.addWebhook('attempted');
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.any([cancelled, AbortSignal.timeout(webhookTimeoutMs)]),
        });
        await response.body?.cancel();
        if (response.ok) {
          this.stats.addWebhook('succeeded');
          return;
        }
      } catch {
        // A timeout or a network error: retried like a non-2xx answer.
      }
      if (cancelled.aborted) return;
      this.stats.addWebhook('failed');
      if (attempt < webhookMaxAttempts) {
        try {
          await sleep(webhookBackoffMs * 2 ** (attempt - 1), undefined, { signal: cancelled });
        } catch {
          return;
        }
      }
    }
    if (!cancelled.aborted) this.stats.addWebhook('abandoned');
  }
}
