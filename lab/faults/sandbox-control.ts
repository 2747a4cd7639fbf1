import { z } from 'zod';
import {
  FaultSettings,
  RateLimitSettings,
  SandboxStats,
  type FaultUpdate,
  type RateLimitUpdate,
} from '../../src/contract/index.js';

/** `GET /sandbox/verifications`: every verification the sandbox created, with the caller's id when it was sent. */
const CreatedVerification = z.object({
  verificationId: z.string(),
  version: z.enum(['v1', 'v2']),
  id: z.string().optional(),
});
export type CreatedVerification = z.infer<typeof CreatedVerification>;
const CreatedVerifications = z.array(CreatedVerification);

/** The sandbox's own endpoints, used over HTTP like any client: faults in, counts out. */
export class SandboxControl {
  constructor(readonly url: string) {}

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${text}`);
    return text === '' ? undefined : JSON.parse(text);
  }

  async setFaults(update: FaultUpdate): Promise<FaultSettings> {
    return FaultSettings.parse(await this.call('POST', '/sandbox/faults', update));
  }

  /** State, stats, buckets, faults and the rate limit back to the sandbox's start (`POST /sandbox/reset`). */
  async reset(): Promise<void> {
    await this.call('POST', '/sandbox/reset');
  }

  /** Moves the service's rate limit R mid-run (`POST /sandbox/rate-limit`). */
  async setRateLimit(update: RateLimitUpdate): Promise<RateLimitSettings> {
    return RateLimitSettings.parse(await this.call('POST', '/sandbox/rate-limit', update));
  }

  async faults(): Promise<FaultSettings> {
    return FaultSettings.parse(await this.call('GET', '/sandbox/faults'));
  }

  async stats(): Promise<SandboxStats> {
    return SandboxStats.parse(await this.call('GET', '/sandbox/stats'));
  }

  /** Caller id -> the verifications created for it (two or more = duplicates at the service). */
  async verificationsByCallerId(): Promise<Map<string, CreatedVerification[]>> {
    const byId = new Map<string, CreatedVerification[]>();
    for (const record of CreatedVerifications.parse(await this.call('GET', '/sandbox/verifications'))) {
      if (record.id === undefined) continue;
      byId.set(record.id, [...(byId.get(record.id) ?? []), record]);
    }
    return byId;
  }
}
