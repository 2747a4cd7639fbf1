import { hkdfSync } from 'node:crypto';
import { CodecKeyError, loadCodecKeys, parseKeys, type CodecKeys } from '../codec/keys.js';
import type { CodecConfig } from '../config.js';

/** One key of the patient search index: its id (not secret) and 32 secret bytes. */
export interface BlindIndexKey {
  id: string;
  key: Buffer;
}

/**
 * The index's key ring: `current` hashes what new verifications are found by; search hashes with every key listed, so
 * verifications indexed before a rotation are still found.
 */
export interface BlindIndexKeys {
  current: BlindIndexKey;
  all: readonly BlindIndexKey[];
}

/** What the codec keys are stretched with when the index has no keys of its own: never the codec key itself. */
const DERIVED_INFO = 'eligibility-orchestrator blind index v1';

/** A key of the index from a codec key (HKDF-SHA256): the same codec key always gives the same index key. */
function derived(id: string, codecKey: Buffer): BlindIndexKey {
  return { id, key: Buffer.from(hkdfSync('sha256', codecKey, Buffer.from(id), DERIVED_INFO, 32)) };
}

/** The ring of BLIND_INDEX_KEYS (`id:base64,…`, the current one `currentKeyId` or the first). */
export function blindIndexKeysOf(text: string, currentKeyId?: string): BlindIndexKeys {
  const all = parseKeys(text, 'BLIND_INDEX_KEYS');
  if (new Set(all.map((k) => k.id)).size !== all.length)
    throw new CodecKeyError('BLIND_INDEX_KEYS: a key id appears twice');
  const current = all.find((k) => k.id === (currentKeyId ?? all[0]!.id));
  if (!current) throw new CodecKeyError(`BLIND_INDEX_CURRENT_KEY_ID: "${currentKeyId}" is not one of BLIND_INDEX_KEYS`);
  return { current, all };
}

/** The ring derived from the codec's: rotating the codec keys rotates the index's with them. */
export function derivedBlindIndexKeys(codec: CodecKeys): BlindIndexKeys {
  const all = [...codec.byId].map(([id, key]) => derived(id, key));
  return { current: derived(codec.current.id, codec.current.key), all };
}

/**
 * The index's keys for a process: BLIND_INDEX_KEYS when set, else derived from the codec keys (so every process that
 * encrypts can index and search without another secret), else none: with encryption off and no keys of its own, no
 * verification is indexed and patient search answers that it is not configured.
 */
export async function loadBlindIndexKeys(config: CodecConfig): Promise<BlindIndexKeys | undefined> {
  const own = config.blindIndex;
  if (own.keys !== undefined) return blindIndexKeysOf(own.keys, own.currentKeyId);
  if (config.disabled) return undefined;
  return derivedBlindIndexKeys(await loadCodecKeys(config));
}
