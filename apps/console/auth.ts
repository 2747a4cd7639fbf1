import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditTrail } from '../../src/audit/audit-trail.js';
import { HEALTH_PATHS } from '../../src/health/routes.js';
import { audit } from './audit.js';
import { csrfToken, requireCsrf } from './csrf.js';
import { verifyOperator, type OperatorEntry } from './operators.js';
import { signInView } from './views/sign-in.js';

/**
 * Paths a visitor may open without signing in: the sign-in form, the page's own style and script, the icon, and the
 * probes and scrape every role serves (counts and states only, nothing of any patient).
 */
const PUBLIC_PATHS = ['/sign-in', '/assets/', '/favicon.ico', ...HEALTH_PATHS];

const isPublic = (url: string) => PUBLIC_PATHS.some((p) => url === p || url.startsWith(p) || url.startsWith(`${p}?`));

/** Where to go after signing in: a path of this console only (never another site, never `//host`). */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?!\/)[A-Za-z0-9/_.:@?=&%-]*$/.test(next) ? next : '/awaiting-input';
}

/**
 * Every page but sign-in needs a signed-in operator. A browser asking for a page is sent to the sign-in form (303,
 * remembering the path, which holds identifiers only); anything else, a form post or a download by a script, gets 401.
 * Either way nothing of the page is computed or sent.
 */
export function guard(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (request.session.operator !== undefined || isPublic(request.url)) return done();
  if (request.method === 'GET' && (request.headers.accept ?? '').includes('text/html')) {
    void reply.redirect(`/sign-in?next=${encodeURIComponent(request.url)}`, 303);
    return;
  }
  void reply.code(401).header('content-type', 'text/plain; charset=utf-8').send('Sign in first.');
}

/**
 * The name a refused sign-in is recorded under: one of CONSOLE_OPERATORS's names, or `?`. Any other text typed in the
 * name box may be a password typed in the wrong box, and is not kept.
 */
const triedName = (operators: ReadonlyMap<string, OperatorEntry>, name: string) => (operators.has(name) ? name : '?');

export function authRoutes(
  app: FastifyInstance,
  operators: ReadonlyMap<string, OperatorEntry>,
  trail?: AuditTrail,
): void {
  app.get<{ Querystring: { next?: string } }>('/sign-in', async (request, reply) => {
    if (request.session.operator) return reply.redirect(safeNext(request.query.next), 303);
    return reply.type('text/html').send(signInView({ csrf: csrfToken(reply), next: safeNext(request.query.next) }));
  });

  app.post<{ Body: { name?: string; password?: string; next?: string } }>(
    '/sign-in',
    { preHandler: requireCsrf(app) },
    async (request, reply) => {
      const { name = '', password = '', next } = request.body ?? {};
      const operator = await verifyOperator(operators, String(name), String(password));
      if (!operator) {
        // Neither the name nor the password is logged or said back: only that this attempt failed.
        request.log.warn('console sign-in refused');
        await audit(trail, request, {
          action: 'operator.sign-in',
          operator: triedName(operators, String(name)),
          outcome: 'denied',
        });
        return reply
          .code(401)
          .type('text/html')
          .send(signInView({ csrf: csrfToken(reply), next: safeNext(next), failed: true, name: String(name) }));
      }
      // A new session id at sign-in: an id planted before it (session fixation) is worth nothing after.
      await request.session.regenerate();
      request.session.operator = operator;
      request.log.info({ operator }, 'console sign-in');
      await audit(trail, request, { action: 'operator.sign-in', operator, outcome: 'ok' });
      return reply.redirect(safeNext(next), 303);
    },
  );

  app.post('/sign-out', { preHandler: requireCsrf(app) }, async (request, reply) => {
    request.log.info({ operator: request.session.operator }, 'console sign-out');
    await audit(trail, request, { action: 'operator.sign-out', outcome: 'ok' });
    await request.session.destroy();
    return reply.redirect('/sign-in', 303);
  });
}
