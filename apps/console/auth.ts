import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleOperator, OperatorDirectory } from '../../src/access/operators.js';
import type { AuditTrail } from '../../src/audit/audit-trail.js';
import { audited } from './audit.js';
import { csrfToken, requireCsrf } from './csrf.js';
import { verifyOperator, type OperatorEntry } from '../../src/access/operator-passwords.js';
import { setOperator, type OperatorSource } from './session.js';
import type { ConsoleSignInThrottle } from './sign-in-throttle.js';
import { signInView, type SignInOptions } from './views/sign-in.js';

/**
 * Where the console's operators come from (docs/operating/console.md): the operator directory in the database (each
 * with a role and tenants), and CONSOLE_OPERATORS (each an administrator of every tenant). Either may be empty, not
 * both.
 */
export interface OperatorSources {
  operators: ReadonlyMap<string, OperatorEntry>;
  directory?: OperatorDirectory;
}

/** A route a visitor may open without signing in (`config.access: {open}`): sign-in, assets, the icon, probes. */
const isOpen = (request: FastifyRequest) => {
  const access = request.routeOptions.config.access;
  return access !== undefined && 'open' in access;
};

/** Where to go after signing in: a path of this console only (never another site, never `//host`). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?!\/)[A-Za-z0-9/_.:@?=&%-]*$/.test(next) ? next : '/today';
}

/**
 * The operator a session's name stands for now: an active operator of the directory (their role and tenants), else a
 * CONSOLE_OPERATORS name (an administrator of every tenant); undefined when neither knows them any more. A session
 * signed in through the directory never falls back to CONSOLE_OPERATORS: disabling its operator ends it. A session
 * signed in through the OpenID Connect provider is what its claims gave at sign-in, or else the directory entry bound
 * to its identity then (disabling it ends the session).
 */
export async function resolveOperator(
  sources: OperatorSources,
  session: { name: string; from: OperatorSource | undefined; claimed?: Pick<ConsoleOperator, 'role' | 'tenants'> },
): Promise<ConsoleOperator | undefined> {
  const { name, from, claimed } = session;
  if (from === 'oidc') {
    if (claimed) return { name, ...claimed };
    const entry = await sources.directory?.entry(name);
    return entry && !entry.disabled ? { name, role: entry.role, tenants: entry.tenants } : undefined;
  }
  const listed = await sources.directory?.find(name);
  if (listed) return listed;
  if (from !== 'directory' && sources.operators.has(name)) return { name, role: 'admin', tenants: null };
  return undefined;
}

/**
 * Every route but those declared open needs a signed-in operator, resolved again on every request (a changed role or a disabled
 * operator counts at once; a session whose operator is gone is ended, as if signed out). A browser asking for a page
 * is sent to the sign-in form (303, remembering the path, which holds identifiers only); anything else, a form post
 * or a download by a script, gets 401. Either way nothing of the page is computed or sent.
 */
export function guard(sources: OperatorSources) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const name = request.session.operator;
    if (name !== undefined) {
      const { operatorFrom: from, claimed } = request.session;
      const operator = await resolveOperator(sources, { name, from, ...(claimed ? { claimed } : {}) });
      if (operator) {
        setOperator(request, operator);
        return undefined;
      }
      request.log.info({ operator: name }, 'console session ended: its operator is no longer active');
      // A fresh, empty session: the old id is worth nothing, and the sign-in form still gets its CSRF secret.
      await request.session.regenerate();
    }
    if (isOpen(request)) return undefined;
    if (request.method === 'GET' && (request.headers.accept ?? '').includes('text/html')) {
      return reply.redirect(`/sign-in?next=${encodeURIComponent(request.url)}`, 303);
    }
    return reply.code(401).header('content-type', 'text/plain; charset=utf-8').send('Sign in first.');
  };
}

/**
 * The name a refused sign-in is recorded under: an operator's name (of the directory or CONSOLE_OPERATORS), or `?`.
 * Any other text typed in the name box may be a password typed in the wrong box, and is not kept.
 */
async function triedName(sources: OperatorSources, name: string): Promise<string> {
  if (sources.operators.has(name) || (await sources.directory?.find(name))) return name;
  return '?';
}

/** Checks a password: the directory first, then CONSOLE_OPERATORS. */
async function verify(
  sources: OperatorSources,
  name: string,
  password: string,
): Promise<{ name: string; from: OperatorSource } | undefined> {
  const listed = await sources.directory?.verify(name, password);
  if (listed) return { name: listed.name, from: 'directory' };
  const named = await verifyOperator(sources.operators, name, password);
  return named === undefined ? undefined : { name: named, from: 'operators' };
}

/**
 * The sign-in routes: the password form (the directory and CONSOLE_OPERATORS) and sign-out. `oidc` names the
 * organisation's OpenID Connect provider on the form when it is configured (its routes are `oidc.ts`'s). `throttle`
 * counts failed passwords per name and address; a blocked attempt is refused before any password is hashed.
 */
export function authRoutes(
  app: FastifyInstance,
  sources: OperatorSources,
  trail: AuditTrail | undefined,
  oidc: SignInOptions['oidc'] | undefined,
  throttle: ConsoleSignInThrottle,
): void {
  const form = (reply: FastifyReply, options: Omit<SignInOptions, 'csrf' | 'oidc'>) =>
    signInView({ ...options, csrf: csrfToken(reply), ...(oidc ? { oidc } : {}) });

  const open = { access: { open: 'the sign-in form' }, owns: 'none', audit: { none: 'a form, nothing of anyone' } };
  app.get<{ Querystring: { next?: string } }>('/sign-in', { config: open }, async (request, reply) => {
    if (request.session.operator) return reply.redirect(safeNext(request.query.next), 303);
    return reply.type('text/html').send(form(reply, { next: safeNext(request.query.next) }));
  });

  app.post<{ Body: { name?: string; password?: string; next?: string } }>(
    '/sign-in',
    {
      preHandler: requireCsrf(app),
      config: { access: { open: 'signing in' }, owns: 'none', audit: 'operator.sign-in' },
    },
    async (request, reply) => {
      const { name = '', password = '', next } = request.body ?? {};
      const wait = await throttle.waitSeconds(request, String(name));
      if (wait > 0) {
        // Neither checked nor said back: each check costs a password hash, which is what a guesser spends.
        request.log.warn({ retryAfter: wait }, 'console sign-in throttled');
        await audited(trail, request, { operator: await triedName(sources, String(name)), outcome: 'throttled' });
        return reply
          .code(429)
          .header('retry-after', String(wait))
          .type('text/html')
          .send(form(reply, { next: safeNext(next), failed: 'throttled', waitSeconds: wait }));
      }
      const signedIn = await verify(sources, String(name), String(password));
      if (!signedIn) {
        await throttle.failed(request, String(name));
        // Neither the name nor the password is logged or said back: only that this attempt failed.
        request.log.warn('console sign-in refused');
        await audited(trail, request, { operator: await triedName(sources, String(name)), outcome: 'denied' });
        return reply
          .code(401)
          .type('text/html')
          .send(form(reply, { next: safeNext(next), failed: 'password', name: String(name) }));
      }
      await throttle.succeeded(String(name));
      const operator = signedIn.name;
      // A new session id at sign-in: an id planted before it (session fixation) is worth nothing after.
      await request.session.regenerate();
      request.session.operator = operator;
      request.session.operatorFrom = signedIn.from;
      request.log.info({ operator }, 'console sign-in');
      await audited(trail, request, { operator });
      return reply.redirect(safeNext(next), 303);
    },
  );

  const signOut = { access: { role: 'viewer' }, owns: 'none', audit: 'operator.sign-out' } as const;
  app.post('/sign-out', { preHandler: requireCsrf(app), config: signOut }, async (request, reply) => {
    request.log.info({ operator: request.session.operator }, 'console sign-out');
    await audited(trail, request);
    await request.session.destroy();
    return reply.redirect('/sign-in', 303);
  });
}
