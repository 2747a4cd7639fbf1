import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CodecKeys } from '../codec/keys.js';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

/** A new endpoint signing secret, as Standard Webhooks spells one: `whsec_` and 24 random bytes in base64. */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Endpoint secrets at rest (docs/integrating/events.md): they sign, so they cannot be hashes; they are sealed with the
 * codec keys (AES-256-GCM, a fresh nonce each, the key's id kept beside it so a key rotation keeps opening old ones).
 * With ENCRYPTION_DISABLED there are no keys and they are kept as they are, marked so.
 */
export class SecretBox {
  // Private: a logged object never shows the keys.
  readonly #keys: CodecKeys | undefined;

  constructor(keys: CodecKeys | undefined) {
    this.#keys = keys;
  }

  seal(secret: string): string {
    if (!this.#keys) return `plain:${secret}`;
    const { id, key } = this.#keys.current;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    const data = Buffer.concat([nonce, cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1:${id}:${data.toString('base64')}`;
  }

  open(sealed: string): string {
    if (sealed.startsWith('plain:')) return sealed.slice('plain:'.length);
    const [version, id, body] = sealed.split(':');
    if (version !== 'v1' || !id || !body) throw new SecretBoxError('an endpoint secret is not in a known form');
    const key = this.#keys?.byId.get(id);
    if (!key) throw new SecretBoxError(`an endpoint secret is sealed with key "${id}", which is not among CODEC_KEYS`);
    const data = Buffer.from(body, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, NONCE_BYTES));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}
