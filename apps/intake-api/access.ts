import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseKey } from '../../src/access/api-keys.js';
import type { IntakeClients } from '../../src/access/intake-clients.js';
import { mayDo, type Principal } from '../../src/access/principal.js';
import { SCOPES } from '../../src/access/scopes.js';
import type { AuditTrail } from '../../src/audit/audit-trail.js';
import { secretsEqual } from '../../src/contract/secrets-equal.js';
import { API_KEY_HEADER, FailedKeys, tooManyFailedKeys } from './api-key.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request acts for: set by `authenticate` on every route but the open ones. */
    principal?: Principal;
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
  /** Failed keys per address (in the database, for every process); without it, counted in this process. */
  failedKeys?: FailedKeys;
}

/** The shortcut key's principal: a small install's one caller, who may do everything. */
const API_KEY_PRINCIPAL: Principal = { actor: 'api-key', tenant: null, scopes: new Set(SCOPES) };

/**
 * Every route needs a key but those that declare themselves open (`config.access`, src/access/route-declarations.ts), and a path that is
 * no route (the 404) needs one too: an intake client's (`eik_…`, looked up on each request, so a revoked one is refused
 * at once by every process) or INTAKE_API_KEY. 401 without a valid one; 403 naming the scope the route declares when
 * the client lacks it.
 */
export function authenticate(access: IntakeAccess) {
  const failedKeys = access.failedKeys ?? new FailedKeys();
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const declared = request.routeOptions.config.access;
    if (declared !== undefined && 'open' in declared) return;
    const given = request.headers[API_KEY_HEADER];
    const key = typeof given === 'string' ? given : undefined;
    const wait = key === undefined ? 0 : await failedKeys.waitSeconds(request);
    if (key !== undefined && wait > 0) {
      await recordRefusal(access, request, key, 'throttled');
      await tooManyFailedKeys(reply, wait);
      return;
    }
    const principal =
      access.apiKey !== undefined && secretsEqual(key, access.apiKey)
        ? API_KEY_PRINCIPAL
        : key !== undefined
          ? await access.clients?.authenticate(key)
          : undefined;
    if (!principal) {
      if (key !== undefined) {
        await failedKeys.failed(request);
        await recordRefusal(access, request, key, 'denied');
      }
      await reply.code(401).send({ error: 'unauthorized', message: `missing or wrong ${API_KEY_HEADER}` });
      return;
    }
    request.principal = principal;
    const scope = declared !== undefined && 'scope' in declared ? declared.scope : undefined;
    if (scope !== undefined && !mayDo(principal, scope)) {
      await reply.code(403).send({ error: 'forbidden', message: `this client lacks the scope ${scope}` });
    }
  };
}

/**
 * A refused key is an `intake.sign-in` entry, `denied` before the 401 (`throttled` before the 429): as the client its public id names when it is
 * shaped like one of ours (`client:<id>`, never its secret), `client:?` otherwise (it may be anything pasted in the
 * header). A request with no key at all presented no credential and is not recorded.
 */
async function recordRefusal(
  access: IntakeAccess,
  request: FastifyRequest,
  key: string,
  outcome: 'denied' | 'throttled',
): Promise<void> {
  if (!access.audit) return;
  const id = parseKey(key)?.id;
  await access.audit.append({
    actor: id ? `client:${id}` : 'client:?',
    action: 'intake.sign-in',
    source: request.ip,
    outcome,
  });
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('an open route asked who its caller is');
  return request.principal;
}
