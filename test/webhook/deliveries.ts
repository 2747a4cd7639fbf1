import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SIGNATURE_HEADER } from '../../src/contract/index.js';
import { signWebhook } from '../../src/contract/webhook-signature.js';
import { WEBHOOK_PATH } from '../../apps/receiver/index.js';

export const SECRET = 'whsec_test_secret_0123456789abcdef';

/** A delivery as the sandbox sends it: `{id, type, created, data}`. */
export function delivery(type: string, data: Record<string, unknown>, id = `evt_${randomUUID()}`) {
  return JSON.stringify({ id, type, created: new Date().toISOString(), data });
}

export interface DeliverOptions {
  /** Signs with this secret; '' sends no signature. */
  secret?: string;
  timestampSeconds?: number;
  headers?: Record<string, string>;
}

/** POSTs `body` to the receiver, signed with `secret` at `timestampSeconds` unless `headers` say otherwise. */
export function deliver(app: FastifyInstance, body: string, options: DeliverOptions = {}) {
  const { secret = SECRET, timestampSeconds = Date.now() / 1000, headers = {} } = options;
  return app.inject({
    method: 'POST',
    url: WEBHOOK_PATH,
    headers: {
      'content-type': 'application/json',
      ...(secret ? { [SIGNATURE_HEADER]: signWebhook(secret, timestampSeconds, body) } : {}),
      ...headers,
    },
    payload: body,
  });
}
