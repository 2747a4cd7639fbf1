import cors from '@fastify/cors';
import type { Payload, PayloadCodec } from '@temporalio/common';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { secretsEqual } from '../../src/contract/secrets-equal.js';
import { healthRoutes } from '../../src/health/routes.js';
import type { Logger } from '../../src/logging.js';
import { countHttpRequests } from '../../src/metrics/http-metrics.js';

export interface CodecServerOptions {
  codec: PayloadCodec;
  /** Required on every call: `Authorization: Bearer <token>`, or the endpoint path `/t/<token>` for Temporal UI. */
  token: string;
  /** Browser origins allowed (Temporal UI's); any other Origin is refused. */
  origins: readonly string[];
  /** The namespace whose payloads this server decodes; a request naming another in X-Namespace is refused. */
  namespace: string;
  logger: Logger;
}

// The codec-server contract of Temporal UI and CLI: payloads as JSON, bytes in base64.
const JsonPayloads = z.object({
  payloads: z.array(z.object({ metadata: z.record(z.string(), z.string()).optional(), data: z.string().optional() })),
});
type JsonPayloads = z.infer<typeof JsonPayloads>;

const fromJson = ({ payloads }: JsonPayloads): Payload[] =>
  payloads.map((p) => ({
    metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(p.data ?? '', 'base64'),
  }));

const toJson = (payloads: Payload[]): JsonPayloads => ({
  payloads: payloads.map((p) => ({
    metadata: Object.fromEntries(
      Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
    ),
    data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
  })),
});

/** A browser origin that is not Temporal UI's: refused outright (403), even with the token. */
class OriginNotAllowedError extends Error {
  override name = 'OriginNotAllowedError';
  readonly statusCode = 403;
}

/**
 * The codec server Temporal UI and `temporal --codec-endpoint` call to show decrypted payloads to a person: only to a
 * caller with the token, from an allowed origin, for this namespace. It never logs payloads.
 */
export function createCodecServer(options: CodecServerOptions): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024 });

  void app.register(cors, {
    // A request without Origin is not a browser's (the CLI, curl): no CORS headers. Temporal UI's origins are
    // reflected; any other origin is refused before the token is even looked at.
    origin: (origin, done) => {
      if (origin === undefined) return done(null, false);
      if (options.origins.includes(origin)) return done(null, true);
      done(new OriginNotAllowedError(`origin ${origin} is not allowed`), false);
    },
    credentials: true,
    methods: ['POST', 'GET', 'OPTIONS'],
    allowedHeaders: ['X-Namespace', 'Content-Type', 'Authorization'],
    // Temporal UI's preflight is answered whatever request headers it names.
    strictPreflight: false,
  });
  app.setErrorHandler((error, _request, reply) =>
    error instanceof OriginNotAllowedError ? reply.code(403).send({ error: 'origin not allowed' }) : reply.send(error),
  );

  const handle = (operation: 'encode' | 'decode') => async (request: FastifyRequest, reply: FastifyReply) => {
    const pathToken = (request.params as { token?: string }).token;
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!secretsEqual(pathToken ?? bearer, options.token)) return reply.code(401).send({ error: 'token required' });
    const namespace = request.headers['x-namespace'];
    if (typeof namespace === 'string' && namespace !== options.namespace) {
      return reply.code(403).send({ error: `namespace ${namespace} is not served here` });
    }
    const body = JsonPayloads.safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: 'expected {payloads: [{metadata, data}]}' });
    try {
      const payloads = fromJson(body.data);
      const result =
        operation === 'encode' ? await options.codec.encode(payloads) : await options.codec.decode(payloads);
      return reply.send(toJson(result));
    } catch (err) {
      options.logger.warn({ operation, error: (err as Error).name }, 'codec server could not process payloads');
      return reply.code(400).send({ error: (err as Error).message });
    }
  };

  for (const prefix of ['', '/t/:token']) {
    app.post(`${prefix}/encode`, handle('encode'));
    app.post(`${prefix}/decode`, handle('decode'));
  }
  app.get('/health', () => ({ ok: true }));
  countHttpRequests(app, 'codec-server');
  // It decrypts with its keys alone and never calls Temporal: once listening with its keys loaded, it is ready. Tying
  // it to the Temporal server would stop Temporal UI from showing payloads whenever a probe failed, for no gain.
  healthRoutes(app, { ready: () => Promise.resolve(true) });
  return app;
}
