import { createHmac } from 'node:crypto';
import { secretsEqual } from './secrets-equal.js';

/**
 * Signing of webhook deliveries (a gap in the spec: docs/decisions/0001-service-contract-gaps.md): the header
 * `SIGNATURE_HEADER` carries `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. The sandbox signs with
 * `signWebhook`; the receiver and tests verify with `verifyWebhookSignature`, so both sides share one definition.
 */

function hmacHex(secret: string, timestampSeconds: number, rawBody: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.`).update(rawBody).digest('hex');
}

/** The signature header value for a body sent at `timestampSeconds`. */
export function signWebhook(secret: string, timestampSeconds: number, rawBody: string | Uint8Array): string {
  const t = Math.floor(timestampSeconds);
  return `t=${t},v1=${hmacHex(secret, t, rawBody)}`;
}

export interface ParsedSignature {
  timestampSeconds: number;
  /** Every `v1=` value; more than one lets a sender sign with an old and a new secret while rotating. */
  signatures: string[];
}

/** Reads `t=…,v1=…[,v1=…]`; undefined when the header is missing or malformed. */
export function parseSignatureHeader(header: string | undefined): ParsedSignature | undefined {
  if (!header) return undefined;
  let timestampSeconds: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value, ...rest] = part.trim().split('=');
    if (rest.length > 0 || value === undefined) return undefined;
    if (key === 't' && /^\d{1,12}$/.test(value)) timestampSeconds = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestampSeconds === undefined || signatures.length === 0 ? undefined : { timestampSeconds, signatures };
}

export interface VerifyOptions {
  /** How far the signed timestamp may be from now, either way; a replayed old delivery is refused. Default 300. */
  toleranceSeconds?: number;
  /** Now, in unix seconds (tests pass a fixed clock). Default: the system clock. */
  nowSeconds?: number;
}

/** True when `header` signs exactly `rawBody` with `secret` within the tolerance. Compares in constant time. */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  rawBody: string | Uint8Array,
  { toleranceSeconds = 300, nowSeconds = Date.now() / 1000 }: VerifyOptions = {},
): boolean {
  const parsed = parseSignatureHeader(header);
  if (!parsed || Math.abs(nowSeconds - parsed.timestampSeconds) > toleranceSeconds) return false;
  const expected = hmacHex(secret, parsed.timestampSeconds, rawBody);
  let valid = false;
  for (const signature of parsed.signatures) {
    // Every candidate is compared, so the time taken does not tell which one matched.
    valid = secretsEqual(signature, expected) || valid;
  }
  return valid;
}
