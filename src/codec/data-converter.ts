import { fileURLToPath } from 'node:url';
import type { DataConverter } from '@temporalio/common';
import type { CodecConfig } from '../config.js';
import { EncryptionCodec } from './encryption-codec.js';
import { loadCodecKeys, type CodecKeys } from './keys.js';

export const failureConverterPath = fileURLToPath(new URL('./failure-converter.cjs', import.meta.url));

/** The data converter of a set of keys: every Temporal client and worker of the project uses one of these. */
export function encryptedDataConverter(keys: CodecKeys): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(keys)], failureConverterPath };
}

/**
 * The process's data converter from config: encrypting, unless ENCRYPTION_DISABLED=true says otherwise. Fails, naming
 * the setting, when keys are missing or wrong, before anything connects.
 */
export async function createDataConverter(config: CodecConfig): Promise<DataConverter> {
  if (config.disabled) return { failureConverterPath };
  return encryptedDataConverter(await loadCodecKeys(config));
}
