import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec, SerializationContext } from '@temporalio/common';
// CommonJS: its namespaces are not named exports under Node's ESM loader.
import proto from '@temporalio/proto';
import type { CodecKeys } from './keys.js';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
/** The workflow a payload belongs to, in clear and bound to the ciphertext: the codec server checks its tenant. */
export const WORKFLOW_ID_METADATA = 'encryption-workflow-id';
const { Payload: PayloadProto } = proto.temporal.api.common.v1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class PayloadDecryptionError extends Error {
  override name = 'PayloadDecryptionError';
}

/** The workflow an encrypted payload names in its metadata, if any (payloads written before the tag have none). */
export function payloadWorkflowId(payload: Payload): string | undefined {
  const bytes = payload.metadata?.[WORKFLOW_ID_METADATA];
  return bytes ? decoder.decode(bytes) : undefined;
}

export const isEncrypted = (payload: Payload): boolean => {
  const encoding = payload.metadata?.encoding;
  return encoding !== undefined && encoding !== null && decoder.decode(encoding) === ENCRYPTED_ENCODING;
};

/**
 * AES-256-GCM over the whole original payload (its metadata too, so even the encoding is hidden), a fresh random
 * nonce per payload, the key id in the metadata so old keys keep decrypting after a rotation. The id of the workflow
 * the payload belongs to (the SDK's serialization context) rides in clear beside it as additional authenticated data:
 * the codec server decides by it whose payload this is, and a payload moved under another workflow's id no longer
 * decrypts. Payloads that are not encrypted pass through `decode` unchanged (written before encryption was on, or by a
 * client without it).
 */
export class EncryptionCodec implements PayloadCodec {
  // A private field, not a property: the SDK logs its worker's options, data converter included, at debug level, and
  // a property would have put the keys' bytes in that line.
  readonly #keys: CodecKeys;

  constructor(keys: CodecKeys) {
    this.#keys = keys;
  }

  encode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    return Promise.resolve(payloads.map((payload) => this.encrypt(payload, context?.workflowId)));
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(payloads.map((payload) => this.decrypt(payload)));
  }

  private encrypt(payload: Payload, workflowId: string | undefined): Payload {
    const { id, key } = this.#keys.current;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    if (workflowId !== undefined) cipher.setAAD(encoder.encode(workflowId));
    const plain = PayloadProto.encode(payload).finish();
    const data = Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return {
      metadata: {
        encoding: encoder.encode(ENCRYPTED_ENCODING),
        [KEY_ID_METADATA]: encoder.encode(id),
        ...(workflowId !== undefined ? { [WORKFLOW_ID_METADATA]: encoder.encode(workflowId) } : {}),
      },
      data: new Uint8Array(data),
    };
  }

  private decrypt(payload: Payload): Payload {
    if (!isEncrypted(payload)) return payload;
    const idBytes = payload.metadata?.[KEY_ID_METADATA];
    const id = idBytes ? decoder.decode(idBytes) : '';
    const key = this.#keys.byId.get(id);
    if (!key) throw new PayloadDecryptionError(`payload encrypted with key "${id}", which is not among CODEC_KEYS`);
    const data = Buffer.from(payload.data ?? new Uint8Array());
    if (data.length < NONCE_BYTES + TAG_BYTES) throw new PayloadDecryptionError('encrypted payload is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, NONCE_BYTES));
    const workflowId = payloadWorkflowId(payload);
    if (workflowId !== undefined) decipher.setAAD(encoder.encode(workflowId));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return PayloadProto.decode(plain);
  }
}
