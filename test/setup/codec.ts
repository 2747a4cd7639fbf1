import type { DataConverter } from '@temporalio/common';
import { encryptedDataConverter } from '../../src/codec/data-converter.js';
import { codecKeys, generateKey, type CodecKeys } from '../../src/codec/keys.js';

/** Keys made for this test run: every client and worker of the suite encrypts, as in production. */
export const TEST_CODEC_KEYS = generateKey('test');

export function testCodecKeys(keys = TEST_CODEC_KEYS): CodecKeys {
  return codecKeys(keys, 'test keys');
}

let converter: DataConverter | undefined;

export function testDataConverter(): DataConverter {
  converter ??= encryptedDataConverter(testCodecKeys());
  return converter;
}

/** Environment for child processes (the `eligibility` command) so they share this run's keys. */
export function testCodecEnv(): Record<string, string> {
  return { CODEC_KEYS: TEST_CODEC_KEYS };
}
