import type { Client } from '@temporalio/client';
import type { FastifyRequest } from 'fastify';
import { actingAs } from '../../src/temporal/client.js';
import type { IntakeDeps } from './deps.js';

/**
 * The identity workflow history records for what the API does on a caller's behalf: `intake:client:<id>` for an
 * intake client (its public id: never its name, key or any patient value), `intake:api-key` for the shortcut key.
 */
export function callerIdentity(request: FastifyRequest): string {
  const actor = request.principal?.actor ?? 'unknown';
  // An intake client's actor is `client:<id> (<name>)`: the id alone names it.
  return `intake:${/^client:\S+/.exec(actor)?.[0] ?? actor}`;
}

const byBase = new WeakMap<Client, Map<string, Client>>();

/**
 * The process's client acting as the request's caller, for the starts, signals and updates it sends: history then
 * names the intake client, not this process (`pid@host`). Clients share the process's one connection and are cached
 * per caller (intake clients are few).
 */
export function callerClient(deps: Pick<IntakeDeps, 'client'>, request: FastifyRequest): Client {
  let clients = byBase.get(deps.client);
  if (!clients) byBase.set(deps.client, (clients = new Map<string, Client>()));
  const identity = callerIdentity(request);
  let client = clients.get(identity);
  if (!client) clients.set(identity, (client = actingAs(deps.client, identity)));
  return client;
}
