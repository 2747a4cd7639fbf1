import { randomInt, randomUUID } from 'node:crypto';
import { DISCOVERY_UPDATED_EVENT, type Discovery, type SandboxDiscoveryRequest } from '../src/contract/index.js';
import { DEFAULT_DISCOVERY_PAYER_ID } from './seed.js';
import type { SandboxState } from './state.js';
import type { WebhookDispatcher } from './webhooks.js';

/** Magic last name (any case): the discovery completes without coverage. */
export const NO_COVERAGE_LAST_NAME = 'nocoverage';

/**
 * Discoveries are created through `POST /sandbox/discoveries` (how the real service creates them is not shown) and
 * complete on a timer or on `POST /sandbox/discoveries/{id}/complete`; each completion emits
 * `sandbox.discovery.updated`.
 */
export class DiscoveryLifecycle {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly state: SandboxState,
    private readonly webhooks: WebhookDispatcher,
    private readonly defaultDelayMs: number,
  ) {}

  create(request: SandboxDiscoveryRequest): Discovery {
    const { delayMs = this.defaultDelayMs, ...fields } = request;
    const discovery: Discovery = {
      status: 'pending',
      discoveryId: randomUUID(),
      // Without a payer given, the payer is unknown until a successful completion finds one.
      payerId: fields.payerId ?? '',
      payerName: null,
      memberId: null,
      firstName: fields.firstName,
      lastName: fields.lastName,
      dateOfBirth: fields.dateOfBirth,
      state: fields.state,
      ...(fields.id === undefined ? {} : { id: fields.id }),
    };
    this.state.discoveries.set(discovery.discoveryId, discovery);
    if (delayMs >= 0) {
      const timer = setTimeout(() => this.complete(discovery.discoveryId), delayMs);
      // A discovery never keeps the process alive on its own.
      timer.unref();
      this.timers.set(discovery.discoveryId, timer);
    }
    return { ...discovery };
  }

  /**
   * Completes a pending discovery; `successful` defaults to the magic rule (last name Nocoverage = no coverage).
   * Returns undefined when the discovery is unknown or already complete.
   */
  complete(discoveryId: string, successful?: boolean): Discovery | undefined {
    const discovery = this.state.discoveries.get(discoveryId);
    if (!discovery || discovery.status === 'complete') return undefined;
    clearTimeout(this.timers.get(discoveryId));
    this.timers.delete(discoveryId);
    // The patient's scripted coverage (POST /sandbox/coverage) decides, unless the caller completes it explicitly.
    const covered = this.state.coverage.discover(discovery, discovery.payerId || DEFAULT_DISCOVERY_PAYER_ID);
    const found = successful ?? (discovery.lastName.toLowerCase() !== NO_COVERAGE_LAST_NAME && covered.found);
    discovery.status = 'complete';
    if (found) {
      discovery.payerId = covered.found ? covered.payerId : discovery.payerId || DEFAULT_DISCOVERY_PAYER_ID;
      discovery.payerName = this.state.findPayer(discovery.payerId)?.payerName ?? null;
      discovery.memberId = covered.found ? covered.memberId : `W${randomInt(100_000_000, 1_000_000_000)}`;
    }
    this.webhooks.emit(DISCOVERY_UPDATED_EVENT, { discoveryId, status: discovery.status });
    return { ...discovery };
  }

  cancelTimers(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
