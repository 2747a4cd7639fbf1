import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseKey } from '../../src/access/api-keys.js';
import type { IntakeClients } from '../../src/access/intake-clients.js';
import { mayDo, type Principal } from '../../src/access/principal.js';
import { SCOPES, type Scope } from '../../src/access/scopes.js';
import type { AuditTrail } from '../../src/audit/audit-trail.js';
import type { AuditEvent } from '../../src/audit/audit-entry.js';
import { secretsEqual } from '../../src/contract/secrets-equal.js';
import { API_KEY_HEADER } from './api-key.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request acts for: set by `authenticate` on every route but the open ones. */
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** The scope a route needs (docs/operating/access-and-audit.md); a route with none needs a key and nothing more. */
    scope?: Scope;
  }
}

/** How callers are known and what they did is kept. */
export interface IntakeAccess {
  /** Intake clients' keys (DATABASE_URL); without them only `apiKey` works. */
  clients?: IntakeClients;
  /** The audit trail; without it nothing is recorded (tests, and the audit-cost bench's "off"). */
  audit?: AuditTrail;
  /** INTAKE_API_KEY: the single-tenant shortcut, every scope, every tenant. */
  apiKey?: string;
}

/** The shortcut key's principal: a small install's one caller, who may do everything. */
const API_KEY_PRINCIPAL: Principal = { actor: 'api-key', tenant: null, scopes: new Set(SCOPES) };

/**
 * Every route but the `open` ones (exact paths, or prefixes written `/prefix/*`) needs a key: an intake client's (`eik_…`, looked up on each request, so a revoked
 * one is refused at once by every process) or INTAKE_API_KEY. 401 without a valid one; 403 naming the scope the
 * route needs (its `config.scope`) when the client lacks it.
 */
export function authenticate(access: IntakeAccess, open: readonly string[]) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const url = request.routeOptions.url;
    if (
      url !== undefined &&
      open.some((path) => (path.endsWith('/*') ? url.startsWith(path.slice(0, -1)) : url === path))
    )
      return;
    const given = request.headers[API_KEY_HEADER];
    const key = typeof given === 'string' ? given : undefined;
    const principal =
      access.apiKey !== undefined && secretsEqual(key, access.apiKey)
        ? API_KEY_PRINCIPAL
        : key !== undefined
          ? await access.clients?.authenticate(key)
          : undefined;
    if (!principal) {
      if (key !== undefined) await recordRefusal(access, request, key);
      await reply.code(401).send({ error: 'unauthorized', message: `missing or wrong ${API_KEY_HEADER}` });
      return;
    }
    request.principal = principal;
    const scope = request.routeOptions.config.scope;
    if (scope !== undefined && !mayDo(principal, scope)) {
      await reply.code(403).send({ error: 'forbidden', message: `this client lacks the scope ${scope}` });
    }
  };
}

/**
 * A refused key is an `intake.sign-in` entry, `denied`, before the 401: as the client its public id names when it is
 * shaped like one of ours (`client:<id>`, never its secret), `client:?` otherwise (it may be anything pasted in the
 * header). A request with no key at all presented no credential and is not recorded.
 */
async function recordRefusal(access: IntakeAccess, request: FastifyRequest, key: string): Promise<void> {
  if (!access.audit) return;
  const id = parseKey(key)?.id;
  await access.audit.append({
    actor: id ? `client:${id}` : 'client:?',
    action: 'intake.sign-in',
    source: request.ip,
    outcome: 'denied',
  });
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('a route with no scope asked who its caller is');
  return request.principal;
}

/**
 * Appends the request's entry to the audit trail before the answer goes out: a disclosure whose entry cannot be
 * written is not made (the write's failure becomes the request's 500).
 */
export async function audit(
  access: IntakeAccess,
  request: FastifyRequest,
  event: Omit<AuditEvent, 'actor' | 'source' | 'tenant'> & { tenant?: string | null },
): Promise<void> {
  if (!access.audit) return;
  const principal = principalOf(request);
  await access.audit.append({
    ...event,
    actor: principal.actor,
    tenant: event.tenant ?? principal.tenant,
    source: request.ip,
  });
}
