import type { DataConverter } from '@temporalio/common';
import { encryptedDataConverter } from '../src/codec/data-converter.js';
import { codecKeys, generateKey, type CodecKeys } from '../src/codec/keys.js';
import { derivedBlindIndexKeys, type BlindIndexKeys } from '../src/blind-index/keys.js';

const KEYS_VARIABLE = 'ELIGIBILITY_TEST_CODEC_KEYS';

/**
 * Keys made for this test run: every client and worker of the suite encrypts, as in production. Mocha's main process
 * makes them before it starts the test processes, which inherit them, so a workflow one process wrote is readable in
 * every other (lists of verifications, batches and the console see them all).
 */
export const TEST_CODEC_KEYS = (process.env[KEYS_VARIABLE] ??= generateKey('test'));

export function testCodecKeys(keys = TEST_CODEC_KEYS): CodecKeys {
  return codecKeys(keys, 'test keys');
}

/** The patient search index's keys of this run: derived from its codec keys, as every process without its own. */
export function testBlindIndex(keys = TEST_CODEC_KEYS): BlindIndexKeys {
  return derivedBlindIndexKeys(testCodecKeys(keys));
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
