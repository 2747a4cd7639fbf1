import type { SandboxStats } from '../src/contract/index.js';

/** What `GET /sandbox/stats` returns; tests and benchmarks count calls and duplicates with it. */
export type Stats = SandboxStats;

function empty(): Stats {
  return {
    calls: {},
    verificationsCreated: 0,
    idempotentReplays: 0,
    tooManyRequestsSent: 0,
    tokensIssued: 0,
    responsesDropped: 0,
    webhookDeliveries: { attempted: 0, succeeded: 0, failed: 0, abandoned: 0, dropped: 0 },
  };
}

export class StatsRecorder {
  private data = empty();

  /** `route` is the route pattern (`/v1/payers/:payerId`), so calls for different ids add up. */
  recordCall(method: string, route: string, status: number): void {
    const byStatus = (this.data.calls[`${method} ${route}`] ??= {});
    byStatus[String(status)] = (byStatus[String(status)] ?? 0) + 1;
    if (status === 429) this.data.tooManyRequestsSent += 1;
  }

  add(counter: 'verificationsCreated' | 'idempotentReplays' | 'tokensIssued' | 'responsesDropped'): void {
    this.data[counter] += 1;
  }

  addWebhook(counter: keyof Stats['webhookDeliveries']): void {
    this.data.webhookDeliveries[counter] += 1;
  }

  snapshot(): Stats {
    return structuredClone(this.data);
  }

  reset(): void {
    this.data = empty();
  }
}
