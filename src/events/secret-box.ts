import { randomBytes } from 'node:crypto';
import type { CodecKeys } from '../codec/keys.js';
import { Sealer, SealError } from '../codec/sealing.js';

export { SealError as SecretBoxError };

/** A new endpoint signing secret, as Standard Webhooks spells one: `whsec_` and 24 random bytes in base64. */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Endpoint secrets at rest (docs/integrating/events.md): they sign, so they cannot be hashes; they are sealed with the
 * codec keys (src/codec/sealing.ts). With ENCRYPTION_DISABLED there are no keys and they are kept as they are.
 */
export class SecretBox extends Sealer {
  constructor(keys: CodecKeys | undefined) {
    super(keys, 'an endpoint secret');
  }
}
