import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OidcPending } from './oidc-client.js';

/** The cookie an OpenID Connect sign-in under way rides in, between leaving for the provider and coming back. */
export const OIDC_PENDING_COOKIE = 'console_oidc';

/** How long a person has at the provider before the sign-in they started is forgotten. */
const PENDING_SECONDS = 600;

/**
 * Keeps what the callback must match in a cookie signed with the session key (`session.ts`), not in a session row:
 * following the provider's link writes nothing to the database, and any console process behind the same load balancer
 * can finish the sign-in. HttpOnly and SameSite=Lax (the provider sends the browser back with a top-level GET, which
 * carries it); its end time is inside the signed value, so an old cookie kept past its Max-Age is still refused.
 */
export function keepPending(reply: FastifyReply, pending: OidcPending): void {
  const value = JSON.stringify({ ...pending, until: Date.now() + PENDING_SECONDS * 1000 });
  reply.setCookie(OIDC_PENDING_COOKIE, value, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: 'auto',
    path: '/',
    maxAge: PENDING_SECONDS,
  });
}

const isPending = (value: unknown): value is OidcPending & { until: number } => {
  const v = value as Partial<Record<keyof OidcPending | 'until', unknown>> | null;
  const texts = [v?.state, v?.nonce, v?.codeVerifier, v?.redirectUrl, v?.next];
  return texts.every((t) => typeof t === 'string') && typeof v?.until === 'number';
};

/** The sign-in under way, once: the cookie is cleared whatever it held, so a replayed callback finds nothing. */
export function takePending(request: FastifyRequest, reply: FastifyReply): OidcPending | undefined {
  const raw = request.cookies[OIDC_PENDING_COOKIE];
  if (raw === undefined) return undefined;
  reply.clearCookie(OIDC_PENDING_COOKIE, { path: '/' });
  const { valid, value } = request.unsignCookie(raw);
  if (!valid || value === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!isPending(parsed) || parsed.until < Date.now()) return undefined;
  const { until: _until, ...pending } = parsed;
  return pending;
}
