import { createHash } from 'node:crypto';

const byCodeUnit = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The same text for the same JSON value whatever its key order or spacing, so a retry that re-serialises its body
 * still matches. Written with a work list instead of recursion: the spec sets no depth limit, and a valid body with a
 * field nested thousands of levels deep must not overflow the stack (which would answer 500).
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // What is still to write, last first: values, or literal text (separators, keys, closing brackets).
  const pending: ({ value: unknown } | string)[] = [{ value }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next === 'string') {
      out.push(next);
      continue;
    }
    const current = next.value;
    if (Array.isArray(current)) {
      out.push('[');
      pending.push(']');
      for (let i = current.length - 1; i >= 0; i--) {
        pending.push({ value: current[i] as unknown });
        if (i > 0) pending.push(',');
      }
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>).sort(byCodeUnit);
      out.push('{');
      pending.push('}');
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        pending.push({ value: item }, `${JSON.stringify(key)}:`);
        if (i > 0) pending.push(',');
      }
    } else {
      out.push(JSON.stringify(current) ?? 'null');
    }
  }
  return out.join('');
}

export function fingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
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
