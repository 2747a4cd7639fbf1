import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers of one attempt: the event's id (the same on every attempt), the attempt's time, and a
 * `v1,<base64 HMAC-SHA256>` signature per secret, space-separated (during a rotation both the new and the old secret
 * sign, so a receiver holding either accepts it). Signed by the `standardwebhooks` package itself, which receivers use
 * to verify.
 */
export function signedHeaders(id: string, body: string, secrets: readonly string[], at: Date): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' '),
  };
}
