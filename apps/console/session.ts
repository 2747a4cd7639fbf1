import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleConfig } from '../../src/config.js';
import { boundedSessionStore } from './session-store.js';

declare module 'fastify' {
  interface Session {
    /** The signed-in operator's name; absent before sign-in. */
    operator?: string;
    /** A one-time notice for the next page (an answer accepted, a decision taken); identifiers only, never PHI. */
    notice?: string;
  }
}

export const SESSION_COOKIE = 'console_session';

/** The signed-in operator of a request the guard let through (`auth.ts`). */
export const operatorOf = (request: FastifyRequest): string => {
  const operator = request.session.operator;
  if (operator === undefined) throw new Error('guard let a request through without an operator');
  return operator;
};

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (no other site's form or fetch carries it), Secure
 * whenever the request came over https (directly or, with CONSOLE_TRUST_PROXY, through a TLS proxy), and expiring
 * after CONSOLE_SESSION_HOURS without use. Sessions live in this process's memory (bounded: `session-store.ts`): a
 * restart signs everyone out, and one console process serves them all (run one replica, or put a shared store here).
 */
export function registerSession(app: FastifyInstance, config: ConsoleConfig & { sessionSecret: string }): void {
  void app.register(fastifyCookie);
  void app.register(fastifySession, {
    secret: config.sessionSecret,
    cookieName: SESSION_COOKIE,
    saveUninitialized: false,
    store: boundedSessionStore(config.sessionHours * 3600_000),
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
