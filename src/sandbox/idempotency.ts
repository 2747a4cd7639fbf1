import { createHash } from 'node:crypto';

/** The same JSON value whatever its key order or spacing, so a retry that re-serialises its body still matches. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

export function fingerprint(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)) ?? '')
    .digest('hex');
}

export type IdempotencyLookup<R> = { kind: 'new' } | { kind: 'replay'; response: R } | { kind: 'conflict' };

/**
 * Idempotency keys of `POST /v2/verifications`, scoped per client id. Only a successful creation is remembered: a
 * rejected request created nothing, so its key stays free for the corrected request.
 */
export class IdempotencyStore<R> {
  private readonly entries = new Map<string, { fingerprint: string; response: R }>();

  lookup(clientId: string, key: string, bodyFingerprint: string): IdempotencyLookup<R> {
    const entry = this.entries.get(`${clientId}\n${key.toLowerCase()}`);
    if (!entry) return { kind: 'new' };
    return entry.fingerprint === bodyFingerprint ? { kind: 'replay', response: entry.response } : { kind: 'conflict' };
  }

  remember(clientId: string, key: string, bodyFingerprint: string, response: R): void {
    this.entries.set(`${clientId}\n${key.toLowerCase()}`, { fingerprint: bodyFingerprint, response });
  }

  clear(): void {
    this.entries.clear();
  }
}
