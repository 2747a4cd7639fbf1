import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleOperator } from '../../src/access/operators.js';
import type { ConsoleConfig } from '../../src/config.js';
import type { Store } from '../../src/store/database.js';
import type { OidcPending } from './oidc-client.js';
import { boundedSessionStore, databaseSessionStore } from './session-store.js';

declare module 'fastify' {
  interface Session {
    /** The signed-in operator's name; absent before sign-in. */
    operator?: string;
    /**
     * Where the name was checked at sign-in: the operator directory (database), CONSOLE_OPERATORS, or the
     * organisation's OpenID Connect provider.
     */
    operatorFrom?: OperatorSource;
    /** The role and tenants the provider's claims gave an `oidc` sign-in that no directory entry maps. */
    claimed?: Pick<ConsoleOperator, 'role' | 'tenants'>;
    /** An OpenID Connect sign-in under way (`oidc.ts`): what its callback must match, and where to go after. */
    oidcPending?: OidcPending;
    /** A one-time notice for the next page (an answer accepted, a decision taken); identifiers only, never PHI. */
    notice?: string;
  }
}

export type OperatorSource = 'directory' | 'operators' | 'oidc';

export const SESSION_COOKIE = 'console_session';

/** The operator each request resolved (`auth.ts`'s guard), looked up again on every request. */
const resolved = new WeakMap<FastifyRequest, ConsoleOperator>();

export const setOperator = (request: FastifyRequest, operator: ConsoleOperator): void => {
  resolved.set(request, operator);
};

/**
 * Who this request's operator is: their name, role and tenants as the guard resolved them for this very request (a
 * changed role or a disabled operator counts from the next request on). Only for requests the guard let through.
 */
export const operatorOf = (request: FastifyRequest): ConsoleOperator => {
  const operator = resolved.get(request);
  if (operator === undefined) throw new Error('guard let a request through without an operator');
  return operator;
};

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (no other site's form or fetch carries it), Secure
 * whenever the request came over https (directly or, with CONSOLE_TRUST_PROXY, through a TLS proxy), and expiring
 * after CONSOLE_SESSION_HOURS without use. With the project's database (`shared`) sessions live there, shared by every
 * console process; without it, in this process's memory (bounded: `session-store.ts`), and a restart signs everyone
 * out.
 */
export function registerSession(
  app: FastifyInstance,
  config: ConsoleConfig & { sessionSecret: string },
  shared?: Store,
): void {
  const idleMs = config.sessionHours * 3600_000;
  void app.register(fastifyCookie);
  void app.register(fastifySession, {
    secret: config.sessionSecret,
    cookieName: SESSION_COOKIE,
    saveUninitialized: false,
    store: shared ? databaseSessionStore(shared, idleMs) : boundedSessionStore(idleMs),
    rolling: true,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: 'auto',
      path: '/',
      maxAge: config.sessionHours * 3600_000,
    },
  });
}
