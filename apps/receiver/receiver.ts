import type { Client } from '@temporalio/client';
import { actingAs } from '../../src/temporal/client.js';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
} from 'fastify';
import { variables, type Config } from '../../src/config.js';
import { INVALID_REQUEST } from '../../src/contract/index.js';
import { temporalReachable } from '../../src/health/readiness.js';
import { healthRoutes } from '../../src/health/routes.js';
import type { Logger } from '../../src/logging.js';
import { countHttpRequests } from '../../src/metrics/http-metrics.js';
import { recordWebhookDelivery, type WebhookDeliveryResult } from '../../src/metrics/project-metrics.js';
import type { ActionContext, ActionReport } from './actions.js';
import { authenticate, resolveWebhookAuth } from './auth.js';
import { EventDeduplicator } from './dedupe.js';
import { discoveryUpdated } from './discovery-updated.js';
import { discoveryEvent, parseDelivery, runEvent, type Delivery, type Parsed } from './parse-delivery.js';
import { runPending } from './run-pending.js';

/** Who sends the deliveries this receiver takes: the service. */
const WEBHOOK_SOURCE = 'eligibility';
export const WEBHOOK_PATH = `/webhooks/${WEBHOOK_SOURCE}`;
/** What workflow history names as the sender of the receiver's signals (a process id would say nothing). */
export const RECEIVER_IDENTITY = `webhook:${WEBHOOK_SOURCE}`;

export interface WebhookReceiverOptions {
  config: Pick<Config, 'webhook'>;
  /** The process's one Temporal client; the receiver never opens a connection of its own. */
  client: Client;
  /** Task queue of the workflows the receiver starts. */
  taskQueue: string;
  logger: Logger;
  /** Tests shorten the wait for visibility to show a just-created verification (default 1500 ms). */
  visibilityWaitMs?: number;
  /** `/readyz`'s deadline for the Temporal server (`READYZ_TIMEOUT_MS`; default its default). */
  readyTimeoutMs?: number;
}

type Action = Config['webhook']['eventActions'][string];
type Prepared = { ok: true; run: (ctx: ActionContext) => Promise<ActionReport> } | { ok: false; param: string };
type Act<T> = (ctx: ActionContext, event: T, eventId: string) => Promise<ActionReport>;

/**
 * Reads the event's identifiers for its action before anything reaches Temporal. The event id travels in the signals:
 * the workflows recognise a delivery they have seen, across receiver restarts and replicas.
 */
function prepare(action: Action, delivery: Delivery): Prepared {
  const bind = <T>(parsed: Parsed<T>, act: Act<T>): Prepared =>
    parsed.ok ? { ok: true, run: (ctx) => act(ctx, parsed.value, delivery.eventId) } : parsed;
  return action === 'discovery-updated'
    ? bind(discoveryEvent(delivery), discoveryUpdated)
    : bind(runEvent(delivery), runPending);
}

function sendError(reply: FastifyReply, status: number, error: string, extra: Record<string, string> = {}) {
  return reply.code(status).send({ error, ...extra });
}

/** A delivery whose body lacks what its action needs: logged by the field's name, never its value. */
function refuseInvalid(log: FastifyBaseLogger, reply: FastifyReply, param: string) {
  log.warn({ param }, 'webhook delivery refused: invalid');
  return answered('invalid', sendError(reply, 400, INVALID_REQUEST, { param }));
}

/** Counts the delivery's result, then answers. */
function answered<T>(result: WebhookDeliveryResult, reply: T): T {
  recordWebhookDelivery(result);
  return reply;
}

/**
 * The receiver of the service's webhook deliveries (docs/integrating/webhooks.md): authenticate, parse, deduplicate by
 * event id, signal the right workflows, then answer. A 2xx means every signal of the event was recorded by Temporal;
 * anything that failed to reach Temporal is answered 503 so the sender delivers it again. Returns the app; the caller
 * listens.
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): FastifyInstance {
  const { config, taskQueue, logger } = options;
  const client = actingAs(options.client, RECEIVER_IDENTITY);
  const settings = config.webhook;
  const auth = resolveWebhookAuth(settings);
  // A fast path only: it spares Temporal a redelivery this process has handled. The workflows are where a delivery is
  // recognised as seen, whichever receiver it reaches and however often it restarts.
  const dedupe = new EventDeduplicator({
    ttlMs: settings.dedupeTtlSeconds * 1000,
    maxEntries: settings.dedupeMaxEvents,
  });
  const ctx: ActionContext = {
    client,
    taskQueue,
    ...(options.visibilityWaitMs !== undefined ? { visibilityWaitMs: options.visibilityWaitMs } : {}),
  };
  // Typed as Fastify's base logger so the app keeps Fastify's default instance type.
  const log: FastifyBaseLogger = logger.child({ component: 'webhook-receiver' });

  // One line per delivery, its outcome's (below): Fastify's two per request said nothing more, and writing them took
  // a fifth of the receiver's own CPU per delivery (its Temporal call aside).
  const app = Fastify({
    loggerInstance: log,
    bodyLimit: settings.maxBodyBytes,
    logController: new LogController({ disableRequestLogging: true }),
  });
  // The signature is over the exact bytes sent, so the body is kept raw whatever its content type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: settings.maxBodyBytes }, (_request, body, done) =>
    done(null, body),
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    // Fastify's own messages never quote the body, but only the code is logged anyway.
    request.log.warn({ code: error.code, status }, 'webhook request failed');
    if (status === 413) return sendError(reply, 413, 'payload_too_large');
    if (status >= 400 && status < 500) return sendError(reply, status, INVALID_REQUEST);
    return sendError(reply, 500, 'internal_error');
  });
  app.setNotFoundHandler((request, reply) => {
    // The method only: a path could carry anything a misconfigured sender put in it.
    request.log.info({ method: request.method }, 'webhook request refused: no such route');
    return sendError(reply, 404, 'not_found');
  });
  countHttpRequests(app, 'receiver');
  const readyTimeoutMs = options.readyTimeoutMs ?? Number(variables.READYZ_TIMEOUT_MS.default);
  healthRoutes(app, { ready: () => temporalReachable(client.connection, readyTimeoutMs) });

  app.post(WEBHOOK_PATH, async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const authResult = authenticate(auth, request.headers, raw);
    if (!authResult.ok) {
      request.log.warn({ failed: authResult.failed }, 'webhook delivery refused: authentication');
      if (auth.basicAuth !== undefined) reply.header('www-authenticate', 'Basic realm="eligibility-webhooks"');
      return answered('unauthorized', sendError(reply, 401, 'unauthorized'));
    }
    const parsed = parseDelivery(raw);
    if (!parsed.ok) return refuseInvalid(request.log, reply, parsed.param);
    const delivery = parsed.value;
    const action = delivery.type === undefined ? undefined : settings.eventActions[delivery.type];
    if (action === undefined) {
      // Logged by type only: an unknown event's body could hold anything.
      request.log.info({ type: delivery.type ?? null }, 'webhook event ignored: no action for its type');
      return answered('ignored', reply.code(200).send({ received: true, ignored: true }));
    }
    const prepared = prepare(action, delivery);
    if (!prepared.ok) return refuseInvalid(request.log, reply, prepared.param);

    const fields = { eventId: delivery.eventId, type: delivery.type, action };
    let report: ActionReport | undefined;
    try {
      const deadline = Date.now() + settings.temporalTimeoutMs;
      const outcome = await dedupe.run(delivery.eventId, async () => {
        report = await client.withDeadline(deadline, () => prepared.run(ctx));
      });
      if (outcome === 'duplicate') {
        request.log.info(fields, 'webhook event already handled');
        return answered('duplicate', reply.code(200).send({ received: true, duplicate: true }));
      }
    } catch (err) {
      request.log.error(
        {
          ...fields,
          ms: Math.round(reply.elapsedTime),
          err: { name: (err as Error)?.name, message: (err as Error)?.message },
        },
        'webhook event not handled: Temporal unavailable',
      );
      return answered('temporal-unavailable', sendError(reply, 503, 'temporal_unavailable'));
    }
    request.log.info({ ...fields, ...report, ms: Math.round(reply.elapsedTime) }, 'webhook event handled');
    return answered('handled', reply.code(200).send({ received: true }));
  });

  return app;
}
