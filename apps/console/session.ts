import { createHmac } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { FastifyInstance, FastifyReply, FastifyRequest, Session } from 'fastify';
import type { ConsoleOperator } from '../../src/access/operators.js';
import type { ConsoleConfig } from '../../src/config.js';
import type { Store } from '../../src/store/database.js';
import { boundedSessionStore, databaseSessionStore, signedInOnly } from './session-store.js';

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

/** Where @fastify/csrf-protection keeps a session's CSRF secret. */
const CSRF_SECRET = '_csrf';

/**
 * The CSRF secret of a session nobody has signed in to, which is never stored (`signedInOnly`): derived from its id
 * with the session key. It joins the session when first read (a page with a form, or the form's post), which is what
 * makes @fastify/session send the cookie; a visit that shows no form gets none.
 */
function anonymousCsrfSecret(sessionSecret: string) {
  return (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    const session = request.session as unknown as (Session & Record<string, unknown>) | null;
    if (!session || session.operator !== undefined || session[CSRF_SECRET] !== undefined) return done();
    const secret = createHmac('sha256', sessionSecret).update(`csrf:${request.session.sessionId}`).digest('base64url');
    const keep = (value: unknown) =>
      Object.defineProperty(session, CSRF_SECRET, { value, writable: true, enumerable: true, configurable: true });
    Object.defineProperty(session, CSRF_SECRET, {
      configurable: true,
      enumerable: false,
      get: () => {
        keep(secret);
        return secret;
      },
      set: keep,
    });
    done();
  };
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (no other site's form or fetch carries it), Secure
 * whenever the request came over https (directly or, with CONSOLE_TRUST_PROXY, through a TLS proxy), and expiring
 * after CONSOLE_SESSION_HOURS without use. With the project's database (`shared`) sessions live there, shared by every
 * console process; without it, in this process's memory (bounded: `session-store.ts`), and a restart signs everyone
 * out. Either keeps only sessions someone signed in to. Cookies of this console's own signed with the same key
 * (`@fastify/cookie`'s `signed`) hold an OpenID Connect sign-in under way (`oidc-pending.ts`).
 */
export function registerSession(
  app: FastifyInstance,
  config: ConsoleConfig & { sessionSecret: string },
  shared?: Store,
): void {
  const idleMs = config.sessionHours * 3600_000;
  void app.register(fastifyCookie, { secret: config.sessionSecret });
  void app.register(fastifySession, {
    secret: config.sessionSecret,
    cookieName: SESSION_COOKIE,
    saveUninitialized: false,
    store: signedInOnly(shared ? databaseSessionStore(shared, idleMs) : boundedSessionStore(idleMs)),
    rolling: true,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: 'auto',
      path: '/',
      maxAge: config.sessionHours * 3600_000,
    },
  });
  // After every onRequest hook (the guard may have given the request a fresh session), before any route's CSRF check.
  app.addHook('preHandler', anonymousCsrfSecret(config.sessionSecret));
}
