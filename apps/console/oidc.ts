import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OIDC_NAME_PREFIX, type ConsoleOperator, type IdentityEntry } from '../../src/access/operators.js';
import type { AuditTrail } from '../../src/audit/audit-trail.js';
import { OIDC_CALLBACK_PATH } from '../../src/config-variables.js';
import { audited } from './audit.js';
import { safeNext, type OperatorSources } from './auth.js';
import { csrfToken } from './csrf.js';
import { claimedAccess, oidcOperatorName, type OidcRefusal } from './oidc-claims.js';
import { IdTokenRefused, OIDC_START_PATH, type OidcClaims, type OidcClient } from './oidc-client.js';
import { keepPending, takePending } from './oidc-pending.js';
import { signInView, type SignInOptions } from './views/sign-in.js';

/** Why a callback did not sign anyone in: the person's refusals, or an answer that was not a valid sign-in at all. */
type Failure = OidcRefusal | 'no-sign-in-under-way' | 'provider-answer-refused';

/** A library error's code or name only (its message may quote what the provider sent); the console's own reason. */
const errorCode = (err: unknown) =>
  err instanceof IdTokenRefused
    ? err.reason
    : ((err as { code?: unknown }).code ?? (err instanceof Error ? err.name : 'unknown'));

/**
 * Sign-in through the organisation's OpenID Connect provider (docs/operating/console.md): `GET /sign-in/oidc` sends the
 * browser to the provider (authorization code + PKCE, with state and nonce kept in a signed cookie, not a session row),
 * and the callback signs in the person whose ID token verifies (`oidc-client.ts`). A directory entry bound to their
 * issuer and subject, or the unbound one made for their name (bound to them then), sets their role and tenants
 * (disabled, it refuses them), else the role and tenants claims do. Every callback is audited like a password
 * sign-in, `ok` or `denied`, naming the person and nothing else of their claims or tokens; a callback whose answer
 * does not verify names nobody (`?`).
 */
export function oidcRoutes(app: FastifyInstance, sources: OperatorSources, client: OidcClient, trail?: AuditTrail) {
  const { settings } = client;
  const signInPage = (reply: FastifyReply, next: string, failed: NonNullable<SignInOptions['failed']>) =>
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
    keepPending(reply, started.pending);
    return reply.redirect(started.url.href, 303);
  });

  /** A refused callback: logged by reason, audited as a denied sign-in of the person (or `?`), the form again. */
  async function refuse(request: FastifyRequest, reply: FastifyReply, name: string, reason: Failure, next: string) {
    request.log.warn({ reason }, 'console sign-in refused');
    await audited(trail, request, { operator: name, outcome: 'denied' });
    const unverified = reason === 'provider-answer-refused' || reason === 'no-sign-in-under-way';
    return reply
      .code(401)
      .type('text/html')
      .send(signInPage(reply, next, unverified ? 'oidc-unverified' : 'oidc'));
  }

  const callback = { access: { open: 'signing in' }, owns: 'none', audit: 'operator.sign-in' };
  app.get(OIDC_CALLBACK_PATH, { config: callback }, async (request, reply) => {
    // One use: the cookie is cleared here, and the provider's code is single-use besides.
    const pending = takePending(request, reply);
    if (!pending) return refuse(request, reply, '?', 'no-sign-in-under-way', '/today');
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

    // The directory's entry for this identity: its role, tenants and state win over the claims.
    const identity = { issuer: claims.iss, subject: claims.sub };
    const found: IdentityEntry = (await sources.directory?.forIdentity(identity, name)) ?? { none: true };
    // Recorded under their subject: the name they would take is another person's.
    if ('taken' in found)
      return refuse(request, reply, `${OIDC_NAME_PREFIX}${claims.sub}`, 'identity-of-another', pending.next);
    if ('entry' in found && found.entry.disabled)
      return refuse(request, reply, found.entry.name, 'operator-disabled', pending.next);
    let claimed: Pick<ConsoleOperator, 'role' | 'tenants'> | undefined;
    if ('none' in found) {
      const access = claimedAccess(claims, settings);
      if ('refused' in access) return refuse(request, reply, name, access.refused, pending.next);
      claimed = access;
    }
    const signedIn = 'entry' in found ? found.entry.name : name;

    // A new session id at sign-in: an id planted before it (session fixation) is worth nothing after.
    await request.session.regenerate();
    request.session.operator = signedIn;
    request.session.operatorFrom = 'oidc';
    if (claimed) request.session.claimed = claimed;
    request.log.info({ operator: signedIn }, 'console sign-in');
    await audited(trail, request, { operator: signedIn });
    return reply.redirect(pending.next, 303);
  });
}
