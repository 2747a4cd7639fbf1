import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleOperator } from '../../src/access/operators.js';
import type { AuditTrail } from '../../src/audit/audit-trail.js';
import { OIDC_CALLBACK_PATH } from '../../src/config-variables.js';
import { audited } from './audit.js';
import { safeNext, type OperatorSources } from './auth.js';
import { csrfToken } from './csrf.js';
import { claimedAccess, oidcOperatorName, type OidcRefusal } from './oidc-claims.js';
import { OIDC_START_PATH, type OidcClaims, type OidcClient } from './oidc-client.js';
import { signInView } from './views/sign-in.js';

/** Why a callback did not sign anyone in: the person's refusals, or an answer that was not a valid sign-in at all. */
type Failure = OidcRefusal | 'no-sign-in-under-way' | 'provider-answer-refused';

/** A library error's code or name only: its message may quote what the provider sent. */
const errorCode = (err: unknown) => (err as { code?: unknown }).code ?? (err instanceof Error ? err.name : 'unknown');

/**
 * Sign-in through the organisation's OpenID Connect provider (docs/operating/console.md): `GET /sign-in/oidc` sends the
 * browser to the provider (authorization code + PKCE, with state and nonce kept in the session), and the callback signs
 * in the person the provider vouches for. Their name is `oidc:<email or subject>`; a directory entry of that name sets
 * their role and tenants (disabled, it refuses them), else the role and tenants claims do. Every callback is audited
 * like a password sign-in, `ok` or `denied`, naming the person and nothing else of their claims or tokens.
 */
export function oidcRoutes(app: FastifyInstance, sources: OperatorSources, client: OidcClient, trail?: AuditTrail) {
  const { settings } = client;
  const signInPage = (reply: FastifyReply, next: string, failed: 'oidc' | 'oidc-unreachable') =>
    signInView({ csrf: csrfToken(reply), next, failed, oidc: { displayName: settings.displayName } });

  const start = { access: { open: 'signing in' }, owns: 'none', audit: { none: 'sends the browser to the provider' } };
  app.get<{ Querystring: { next?: string } }>(OIDC_START_PATH, { config: start }, async (request, reply) => {
    const next = safeNext(request.query.next);
    if (request.session.operator) return reply.redirect(next, 303);
    // Unset, the callback is on the address the browser reached this console at (with CONSOLE_TRUST_PROXY, the
    // proxy's); the provider accepts only the URLs registered for the client, so no other host can receive a code.
    const redirectUrl = settings.redirectUrl ?? `${request.protocol}://${request.host}${OIDC_CALLBACK_PATH}`;
    let started: Awaited<ReturnType<OidcClient['start']>>;
    try {
      started = await client.start(redirectUrl, next);
    } catch (err) {
      request.log.warn({ code: errorCode(err) }, 'console sign-in: the OpenID Connect provider is not reachable');
      return reply
        .code(503)
        .type('text/html')
        .send(signInPage(reply, next, 'oidc-unreachable'));
    }
    request.session.oidcPending = started.pending;
    return reply.redirect(started.url.href, 303);
  });

  /** A refused callback: logged by reason, audited as a denied sign-in of the person (or `?`), the form again. */
  async function refuse(request: FastifyRequest, reply: FastifyReply, name: string, reason: Failure, next: string) {
    request.log.warn({ reason }, 'console sign-in refused');
    await audited(trail, request, { operator: name, outcome: 'denied' });
    return reply
      .code(401)
      .type('text/html')
      .send(signInPage(reply, next, 'oidc'));
  }

  const callback = { access: { open: 'signing in' }, owns: 'none', audit: 'operator.sign-in' };
  app.get(OIDC_CALLBACK_PATH, { config: callback }, async (request, reply) => {
    const pending = request.session.oidcPending;
    // One use: a callback replayed later finds nothing under way.
    request.session.oidcPending = undefined;
    if (!pending) return refuse(request, reply, '?', 'no-sign-in-under-way', '/awaiting-input');
    let claims: OidcClaims;
    try {
      claims = await client.complete(new URL(request.url, 'http://callback').search, pending);
    } catch (err) {
      // A wrong state, an error from the provider, a code refused, an ID token that does not verify: nobody named.
      request.log.warn({ code: errorCode(err) }, 'console sign-in: the provider answer was not accepted');
      return refuse(request, reply, '?', 'provider-answer-refused', pending.next);
    }
    const name = oidcOperatorName(claims);
    if (!name) return refuse(request, reply, '?', 'no-identifier', pending.next);

    // The directory maps the person when it has their name: its role, tenants and state win over the claims.
    const entry = await sources.directory?.entry(name);
    if (entry?.disabled) return refuse(request, reply, name, 'operator-disabled', pending.next);
    let claimed: Pick<ConsoleOperator, 'role' | 'tenants'> | undefined;
    if (!entry) {
      const access = claimedAccess(claims, settings);
      if ('refused' in access) return refuse(request, reply, name, access.refused, pending.next);
      claimed = access;
    }

    // A new session id at sign-in: an id planted before it (session fixation) is worth nothing after.
    await request.session.regenerate();
    request.session.operator = name;
    request.session.operatorFrom = 'oidc';
    if (claimed) request.session.claimed = claimed;
    request.log.info({ operator: name }, 'console sign-in');
    await audited(trail, request, { operator: name });
    return reply.redirect(pending.next, 303);
  });
}
