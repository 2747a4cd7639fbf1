import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { loadCodecKeys, type CodecKeys } from './keys.js';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SealError extends Error {
  override name = 'SealError';
}

/**
 * Text kept at rest in the project's database (endpoint secrets, patient copies), sealed with the codec keys: AES-256-GCM,
 * a fresh nonce each, the key's id kept beside it so a key rotation keeps opening old ones. With ENCRYPTION_DISABLED
 * there are no keys and the text is kept as it is, marked so. `what` names the text in errors, never its value.
 */
export class Sealer {
  // Private: a logged object never shows the keys.
  readonly #keys: CodecKeys | undefined;
  readonly #what: string;

  constructor(keys: CodecKeys | undefined, what: string) {
    this.#keys = keys;
    this.#what = what;
  }

  seal(text: string): string {
    if (!this.#keys) return `plain:${text}`;
    const { id, key } = this.#keys.current;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    const data = Buffer.concat([nonce, cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1:${id}:${data.toString('base64')}`;
  }

  open(sealed: string): string {
    if (sealed.startsWith('plain:')) return sealed.slice('plain:'.length);
    const [version, id, body] = sealed.split(':');
    if (version !== 'v1' || !id || !body) throw new SealError(`${this.#what} is not in a known form`);
    const key = this.#keys?.byId.get(id);
    if (!key) throw new SealError(`${this.#what} is sealed with key "${id}", which is not among CODEC_KEYS`);
    const data = Buffer.from(body, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, NONCE_BYTES));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}

/** The keys text at rest is sealed with: the codec keys, or none with ENCRYPTION_DISABLED. */
export async function sealingKeys(config: Pick<Config, 'codec'>): Promise<CodecKeys | undefined> {
  return config.codec.disabled ? undefined : await loadCodecKeys(config.codec);
}
