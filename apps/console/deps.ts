import type { Client } from '@temporalio/client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditTrail } from '../../src/audit/audit-trail.js';
import { operatorOf } from './session.js';
import { csrfToken } from './csrf.js';
import type { OperatorClients } from './operator-client.js';
import { page, type PageFrame } from './views/layout.js';
import type { Html } from './views/html.js';
import type { PayerNames } from '../../src/payers/payer-names.js';
import type { PayerNameMap } from './views/payer.js';
import type { BlindIndexKeys } from '../../src/blind-index/keys.js';
import { navCountsOf } from './nav-counts.js';
import type { Visits } from '../../src/visits/index.js';

/** What the console's pages share: the process's one Temporal client, and one per operator for what they send. */
export interface ConsoleDeps {
  client: Client;
  operators: OperatorClients;
  /** Deadline of the Temporal calls of one page, in milliseconds (an update waits on a service call). */
  timeoutMs: number;
  /** Temporal UI, for links to a workflow; undefined hides them. */
  temporalUiUrl: string | undefined;
  namespace: string;
  /** The audit trail: every page that shows a patient, every download and every change is recorded in it. */
  audit?: AuditTrail;
  /** Payer names from the service, cached; without them pages show payer ids. */
  payers?: PayerNames;
  /** The patient search index's keys; without them the search by name or member id says it is off. */
  blindIndex?: BlindIndexKeys;
  /**
   * The patients' copies in the database (src/visits): today's visits, and patients found by name or member id; without
   * them neither is shown.
   */
  visits?: Visits;
  /** PATIENT_ID_KEY, loaded once when first asked: a practice's reference gives its patient's id; undefined: off. */
  patientIdKey?: () => Promise<Buffer | undefined>;
}

/** The names of the payers a page shows (none without the service, or past the short wait). */
export function payerNames(deps: ConsoleDeps, ids: Iterable<string | null | undefined>): Promise<PayerNameMap> {
  return deps.payers ? deps.payers.names(ids) : Promise.resolve(new Map());
}

/** Runs Temporal calls under the page's deadline, so an unreachable server shows an error page instead of hanging. */
export function withDeadline<T>(deps: ConsoleDeps, fn: () => Promise<T>): Promise<T> {
  return deps.client.withDeadline(Date.now() + deps.timeoutMs, fn);
}

/** Sends a page of the signed-in console: navigation, sign-out form, and the session's one-time notice. */
export function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  frame: Omit<PageFrame, 'operator' | 'role' | 'csrf' | 'notice' | 'counts'>,
  content: (csrf: string) => Html,
  status = 200,
): FastifyReply {
  const csrf = csrfToken(reply);
  const notice = request.session.notice;
  if (notice !== undefined) request.session.notice = undefined;
  const { name, role } = operatorOf(request);
  const counts = navCountsOf(request);
  const body = page(
    { ...frame, operator: name, role, csrf, ...(notice ? { notice } : {}), ...(counts ? { counts } : {}) },
    content(csrf),
  );
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
}

/** The Temporal UI address of one workflow. */
export function workflowUiUrl(deps: ConsoleDeps, workflowId: string): string | undefined {
  if (!deps.temporalUiUrl) return undefined;
  const ns = encodeURIComponent(deps.namespace);
  return `${deps.temporalUiUrl}/namespaces/${ns}/workflows/${encodeURIComponent(workflowId)}`;
}
