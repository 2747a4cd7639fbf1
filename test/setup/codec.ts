import type { DataConverter } from '@temporalio/common';
import { encryptedDataConverter } from '../../src/codec/data-converter.js';
import { generateKey, parseKeys, type CodecKeys } from '../../src/codec/keys.js';

/** Keys made for this test run: every client and worker of the suite encrypts, as in production. */
export const TEST_CODEC_KEYS = generateKey('test');

export function testCodecKeys(keys = TEST_CODEC_KEYS): CodecKeys {
  const parsed = parseKeys(keys, 'test keys');
  return { current: parsed[0]!, byId: new Map(parsed.map((k) => [k.id, k.key])) };
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
