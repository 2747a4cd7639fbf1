import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { AccessToken } from '../src/contract/index.js';
import { secretsEqual } from '../src/contract/secrets-equal.js';

interface IssuedToken {
  clientId: string;
  expiresAtMs: number;
}

const BEARER = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i;

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * Access tokens: JWT-shaped (header.payload.signature, HMAC-SHA256 with a key made per sandbox), and remembered, so
 * a reset or a revocation invalidates every token issued before it even though its signature still checks out.
 */
export class TokenIssuer {
  private readonly key = randomBytes(32);
  private readonly issued = new Map<string, IssuedToken>();

  constructor(
    private readonly credentials: { clientId: string; clientSecret: string },
    private readonly ttlSeconds: number,
  ) {}

  /** Constant-time comparison of both values, so a wrong secret takes as long as a right one. */
  credentialsMatch(clientId: string, clientSecret: string): boolean {
    const idOk = secretsEqual(clientId, this.credentials.clientId);
    const secretOk = secretsEqual(clientSecret, this.credentials.clientSecret);
    return idOk && secretOk;
  }

  issue(clientId: string): AccessToken {
    this.sweep();
    const nowMs = Date.now();
    const expiresAtMs = nowMs + this.ttlSeconds * 1000;
    const head = base64url({ alg: 'HS256', typ: 'JWT' });
    const body = base64url({
      sub: clientId,
      iat: Math.floor(nowMs / 1000),
      exp: Math.ceil(expiresAtMs / 1000),
      jti: randomUUID(),
    });
    const signature = createHmac('sha256', this.key).update(`${head}.${body}`).digest('base64url');
    const token = `${head}.${body}.${signature}`;
    this.issued.set(token, { clientId, expiresAtMs });
    // `expires_in` is a positive integer; a sub-second test lifetime still shows 1.
    return { access_token: token, token_type: 'Bearer', expires_in: Math.max(1, Math.ceil(this.ttlSeconds)) };
  }

  /** The client id of a valid `Authorization: Bearer …` header; undefined when missing, malformed, unknown, revoked or expired. */
  authenticate(header: string | undefined): string | undefined {
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const found = token === undefined ? undefined : this.issued.get(token);
    if (!found) return undefined;
    if (Date.now() >= found.expiresAtMs) return undefined;
    return found.clientId;
  }

  /** Invalidates every token issued so far; returns how many were valid. */
  revokeAll(): number {
    this.sweep();
    const count = this.issued.size;
    this.issued.clear();
    return count;
  }

  private sweep(): void {
    const nowMs = Date.now();
    for (const [token, { expiresAtMs }] of this.issued) if (nowMs >= expiresAtMs) this.issued.delete(token);
  }
}
