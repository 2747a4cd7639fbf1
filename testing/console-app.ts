import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.js';
import { operatorEntry } from '../src/access/operator-passwords.js';
import type { IntakeClients } from '../src/access/intake-clients.js';
import type { OperatorDirectory } from '../src/access/operators.js';
import type { AuditTrail } from '../src/audit/audit-trail.js';
import type { EventServices } from '../src/events/services.js';
import type { Store } from '../src/store/database.js';
import { createConsole } from '../apps/console/server.js';
import { createLogger } from '../src/logging.js';
import type { PayerNames } from '../src/payers/payer-names.js';
import type { Visits } from '../src/visits/index.js';
import { testBlindIndex } from './codec.js';
import { captureLogs } from './log-capture.js';

/** A console on a free port of 127.0.0.1 with one operator, its log lines kept for the privacy checks. */
export interface TestConsole {
  app: FastifyInstance;
  /** Base URL (no trailing slash); listening only when started with `listen: true`. */
  url: string;
  operator: { name: string; password: string };
  /** Every line the console logged, at debug level. */
  logs: string[];
  close(): Promise<void>;
}

export async function startTestConsole(
  client: Client,
  options: {
    listen?: boolean;
    env?: Record<string, string>;
    audit?: AuditTrail;
    directory?: OperatorDirectory;
    sessions?: Store;
    clients?: IntakeClients;
    events?: EventServices;
    /** This console's operator (another console's, to share its sessions); default a new one. */
    operator?: { name: string; password: string };
    /** The session key (another console's, to share its cookies); default a new one. */
    sessionSecret?: string;
    /** Payer names (the sandbox's payer endpoint); default none: pages show payer ids. */
    payers?: PayerNames;
    /** The patients' copies (src/visits); default none. */
    visits?: Visits;
    /** PATIENT_ID_KEY; default the key file the configuration names, if there is one. */
    patientIdKey?: Buffer;
  } = {},
): Promise<TestConsole> {
  const operator = options.operator ?? { name: 'alice', password: randomBytes(12).toString('base64url') };
  const config = loadConfig('console', {
    CONSOLE_OPERATORS: await operatorEntry(operator.name, operator.password),
    CONSOLE_SESSION_SECRET: options.sessionSecret ?? randomBytes(32).toString('hex'),
    LOG_LEVEL: 'debug',
    ...options.env,
  });
  const captured = captureLogs();
  const app = createConsole({
    config,
    client,
    logger: createLogger(config, 'console-test', captured.sink),
    timeoutMs: 10_000,
    audit: options.audit,
    ...(options.directory ? { directory: options.directory } : {}),
    ...(options.sessions ? { sessions: options.sessions } : {}),
    ...(options.clients ? { clients: options.clients } : {}),
    ...(options.events ? { events: options.events } : {}),
    ...(options.payers ? { payers: options.payers } : {}),
    ...(options.visits ? { visits: options.visits } : {}),
    ...(options.patientIdKey ? { patientIdKey: options.patientIdKey } : {}),
    blindIndex: testBlindIndex(),
  });
  const url = options.listen ? (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '') : '';
  if (!options.listen) await app.ready();
  return { app, url, operator, logs: captured.chunks, close: () => app.close() };
}

/** The session cookie of a response, as a `cookie` header value. */
export function sessionCookie(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = all.find((c) => c.startsWith('console_session='));
  if (!found) throw new Error('no session cookie was set');
  return found.split(';')[0]!;
}

/** The CSRF token a page embeds in its forms. */
export function csrfFrom(body: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
  if (!token) throw new Error('the page has no CSRF token');
  return token;
}

/** Signs in through the form, as a browser would; returns the signed-in session's cookie. */
export function signIn(console: TestConsole): Promise<string> {
  return signInAs(console, console.operator);
}

/** Signs in as `operator` (of CONSOLE_OPERATORS or the operator directory); returns the session's cookie. */
export async function signInAs(console: TestConsole, operator: { name: string; password: string }): Promise<string> {
  const form = await console.app.inject({ method: 'GET', url: '/sign-in', headers: { accept: 'text/html' } });
  const cookie = sessionCookie(form.headers['set-cookie']);
  const answer = await console.app.inject({
    method: 'POST',
    url: '/sign-in',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      _csrf: csrfFrom(form.body),
      name: operator.name,
      password: operator.password,
    }).toString(),
  });
  if (answer.statusCode !== 303) throw new Error(`sign-in answered ${answer.statusCode}`);
  return sessionCookie(answer.headers['set-cookie']);
}

/** A page as a signed-in browser asks for it. */
export const getPage = (console: TestConsole, url: string, cookie: string) =>
  console.app.inject({ method: 'GET', url, headers: { accept: 'text/html', cookie } });

/** A form posted as a signed-in browser posts it. */
export const postForm = (console: TestConsole, url: string, cookie: string, form: Record<string, string>) =>
  console.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    payload: new URLSearchParams(form).toString(),
  });
