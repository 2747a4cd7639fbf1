import type { IncomingHttpHeaders } from 'node:http';
import { ConfigError, type WebhookConfig } from '../../src/config.js';
import { SIGNATURE_HEADER } from '../../src/contract/index.js';
import { secretsEqual } from '../../src/contract/secrets-equal.js';
import { verifyWebhookSignature } from '../../src/contract/webhook-signature.js';

/** What a delivery must carry: a signature, basic credentials, or both when both are configured. */
export interface WebhookAuth {
  signingSecret?: string;
  basicAuth?: string;
  toleranceSeconds: number;
}

/**
 * The receiver's authentication from config. Having neither a signing secret nor basic auth is a startup error unless
 * `WEBHOOK_AUTH_DISABLED=true` says so explicitly; saying so while a credential is set is an error too, since one of
 * the two settings would be silently ignored.
 */
export function resolveWebhookAuth(
  config: Pick<WebhookConfig, 'signingSecret' | 'basicAuth' | 'authDisabled' | 'toleranceSeconds'>,
): WebhookAuth {
  const { signingSecret, basicAuth, authDisabled, toleranceSeconds } = config;
  const hasCredential = signingSecret !== undefined || basicAuth !== undefined;
  if (!hasCredential && !authDisabled) {
    const message =
      'the webhook receiver needs WEBHOOK_SIGNING_SECRET or WEBHOOK_BASIC_AUTH (or WEBHOOK_AUTH_DISABLED=true)';
    throw new ConfigError(
      ['WEBHOOK_SIGNING_SECRET', 'WEBHOOK_BASIC_AUTH', 'WEBHOOK_AUTH_DISABLED'].map((variable) => ({
        variable,
        message,
      })),
    );
  }
  if (hasCredential && authDisabled) {
    throw new ConfigError([
      {
        variable: 'WEBHOOK_AUTH_DISABLED',
        message: 'is true while WEBHOOK_SIGNING_SECRET or WEBHOOK_BASIC_AUTH is set; unset one of them',
      },
    ]);
  }
  return {
    toleranceSeconds,
    ...(signingSecret !== undefined ? { signingSecret } : {}),
    ...(basicAuth !== undefined ? { basicAuth } : {}),
  };
}

function basicCredentials(header: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  return match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : undefined;
}

export type AuthResult = { ok: true } | { ok: false; failed: 'signature' | 'basic' };

/** Checks every configured scheme; the signature covers the timestamp and the exact bytes received. */
export function authenticate(
  auth: WebhookAuth,
  headers: IncomingHttpHeaders,
  rawBody: Buffer,
  nowSeconds = Date.now() / 1000,
): AuthResult {
  if (auth.basicAuth !== undefined) {
    const given = basicCredentials(headers.authorization);
    if (!secretsEqual(given, auth.basicAuth)) return { ok: false, failed: 'basic' };
  }
  if (auth.signingSecret !== undefined) {
    const header = headers[SIGNATURE_HEADER];
    const value = Array.isArray(header) ? header[0] : header;
    const options = { toleranceSeconds: auth.toleranceSeconds, nowSeconds };
    if (!verifyWebhookSignature(auth.signingSecret, value, rawBody, options)) return { ok: false, failed: 'signature' };
  }
  return { ok: true };
}
