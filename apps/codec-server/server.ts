import cors from '@fastify/cors';
import type { Payload, PayloadCodec } from '@temporalio/common';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CodecPerson } from '../../src/access/codec-tokens.js';
import type { AuditEvent } from '../../src/audit/audit-entry.js';
import { healthRoutes } from '../../src/health/routes.js';
import type { Logger } from '../../src/logging.js';
import { countHttpRequests } from '../../src/metrics/http-metrics.js';
import { disclosedFields, mayDecode, ownersOf, type Owners } from './disclosure.js';
import { presentedPass } from './people.js';
import type { TenantOf } from './tenant-cache.js';

export interface CodecServerOptions {
  codec: PayloadCodec;
  /**
   * The person a pass names now, or undefined (the codec server decodes for a person, never a service: decision 38).
   */
  findPerson(pass: string): Promise<CodecPerson | undefined>;
  tenantOf: TenantOf;
  /** Where each decode is recorded, before the payloads go out. */
  audit(event: AuditEvent): Promise<void>;
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

/** The 400 for payloads the codec cannot process: the same words whatever the cause (a key not here, a changed byte). */
export const CODEC_FAILED = {
  encode: 'the payloads could not be encrypted',
  decode: 'the payloads could not be decrypted: a key not configured here, or changed data',
} as const;

/** A browser origin that is not Temporal UI's: refused outright (403), even with the token. */
class OriginNotAllowedError extends Error {
  override name = 'OriginNotAllowedError';
  readonly statusCode = 403;
}

/**
 * The codec server Temporal UI and `temporal --codec-endpoint` call to show decrypted payloads to a person: only to a
 * signed-in person with a pass, from an allowed origin, for this namespace, and only the workflows of their tenants.
 * Every decode is an audit entry per workflow (who, which workflow, the names of the fields shown), and every refusal
 * past the origin check (no pass, another namespace, a malformed body, a viewer, another tenant's workflow, a payload
 * that fails authentication) a `denied` one. It never logs payloads.
 */
export function createCodecServer(options: CodecServerOptions): FastifyInstance {
  // A pass in the path (`/p/<pass>/decode`) is a JWT, longer than Fastify's 100-character default for a parameter.
  const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024, routerOptions: { maxParamLength: 2048 } });

  void app.register(cors, {
    // A request without Origin is not a browser's (the CLI, curl): no CORS headers. Temporal UI's origins are
    // reflected; any other origin is refused before the pass is even looked at.
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
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof OriginNotAllowedError) return reply.code(403).send({ error: 'origin not allowed' });
    // Its name only: a message may quote what it failed on.
    options.logger.error({ error: (error as Error).name }, 'codec server failed a request');
    return reply.send(error);
  });

  /** One entry per workflow the request holds payloads of (one without a workflow when none is named). */
  const record = (request: FastifyRequest, actor: string, owners: Owners | undefined, rest: Partial<AuditEvent>) => {
    const workflows = owners?.workflows.length ? owners.workflows : [{ workflowId: undefined, tenant: null }];
    return Promise.all(
      workflows.map((w) =>
        options.audit({
          actor,
          action: 'codec.decode',
          outcome: 'ok',
          source: request.ip,
          tenant: w.tenant,
          ...(w.workflowId ? { workflowId: w.workflowId } : {}),
          ...rest,
        }),
      ),
    );
  };

  const handle = (operation: 'encode' | 'decode') => async (request: FastifyRequest, reply: FastifyReply) => {
    const action = `codec.${operation}`;
    /**
     * Every refusal of a request that got past the origin check is on record before its answer (decision 84): one
     * `denied` entry per workflow it names with that workflow's tenant, once they are known, else one naming none.
     */
    const refuse = async (status: number, error: string, actor: string, owners?: Owners) => {
      await record(request, actor, owners, { action, outcome: 'denied' });
      return reply.code(status).send({ error });
    };
    const pass = presentedPass(request);
    const person = pass === undefined ? undefined : await options.findPerson(pass);
    if (!person) return refuse(401, 'sign in: a pass from the console is required', 'operator:?');
    const actor = `operator:${person.name}`;
    const namespace = request.headers['x-namespace'];
    if (typeof namespace === 'string' && namespace !== options.namespace) {
      return refuse(403, `namespace ${namespace} is not served here`, actor);
    }
    const body = JsonPayloads.safeParse(request.body);
    if (!body.success) return refuse(400, 'expected {payloads: [{metadata, data}]}', actor);
    const payloads = fromJson(body.data);
    if (operation === 'encode') {
      // Encoding shows nothing: it is Temporal UI sending a person's input. A viewer sends nothing.
      if (person.role === 'viewer') return refuse(403, 'not permitted', actor);
      const encoded = await runCodec(operation, () => options.codec.encode(payloads));
      return 'failed' in encoded ? refuse(400, encoded.failed, actor) : reply.send(toJson(encoded.payloads));
    }
    const owners = await ownersOf(payloads, options.tenantOf);
    if (!mayDecode(person, owners)) return refuse(403, 'not permitted', actor, owners);
    const decoded = await runCodec(operation, () => options.codec.decode(payloads));
    if ('failed' in decoded) return refuse(400, decoded.failed, actor, owners);
    await record(request, actor, owners, { fields: disclosedFields(decoded.payloads) });
    return reply.send(toJson(decoded.payloads));
  };

  /** Payloads the codec cannot read (a key not configured, a changed ciphertext) are the caller's 400; no payload logged. */
  const runCodec = async (
    operation: 'encode' | 'decode',
    run: () => Promise<Payload[]>,
  ): Promise<{ payloads: Payload[] } | { failed: string }> => {
    try {
      return { payloads: await run() };
    } catch (err) {
      options.logger.warn({ operation, error: (err as Error).name }, 'codec server could not process payloads');
      // A fixed answer: the library's message may name a key or quote what it failed on.
      return { failed: CODEC_FAILED[operation] };
    }
  };

  for (const prefix of ['', '/p/:pass']) {
    app.post(`${prefix}/encode`, handle('encode'));
    app.post(`${prefix}/decode`, handle('decode'));
  }
  app.get('/health', () => ({ ok: true }));
  countHttpRequests(app, 'codec-server');
  // Once listening with its keys loaded, it is ready. Tying it to the Temporal server (it only describes workflows for
  // their tenant) would stop Temporal UI from showing payloads whenever a probe failed, for no gain.
  healthRoutes(app, { ready: () => Promise.resolve(true) });
  return app;
}
