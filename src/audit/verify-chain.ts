import { secretsEqual } from '../contract/secrets-equal.js';
import { entryMac, legacyEntryHash, type AuditEntry } from './audit-entry.js';
import type { AuditKeys } from './audit-keys.js';
import { readCheckpoint, type AuditHead } from './checkpoint.js';

export type Verification =
  | {
      ok: true;
      entries: number;
      /** Entries from before the trail was keyed, each checked with the unkeyed rule (only when there are some). */
      legacy?: number;
      /** The entry the checkpoint names, found as it was written (only when a checkpoint is checked). */
      checkpoint?: number;
    }
  | { ok: false; entries: number; brokenAt: number; why: string };

const same = (a: string, b: string): boolean => secretsEqual(a, b);

/**
 * Walks the chain from its oldest retained entry: a keyed entry's hash must be the HMAC of its content under its key,
 * an unkeyed one's the SHA-256 of the rule before keys, and only before every keyed one; each `prevHash` must be the
 * entry before it, with no gap in the numbers. Then the checkpoint: the entry it names must be there, as it was.
 * Names the first entry that breaks it; past the last one, when the end of the trail was cut off.
 */
export async function verifyChain(
  entries: AsyncIterable<AuditEntry>,
  keys: AuditKeys,
  checkpointFile?: string,
): Promise<Verification> {
  // Read first: appends while the walk runs only move the trail past it.
  const checkpoint = checkpointFile === undefined ? undefined : await readCheckpoint(checkpointFile, keys);
  let previous: AuditEntry | undefined;
  let count = 0;
  let legacy = 0;
  let ownKeyed = false;
  let atCheckpoint: AuditHead | undefined;
  for await (const entry of entries) {
    const broken = (why: string): Verification => ({ ok: false, entries: count, brokenAt: entry.seq, why });
    const { hash, ...body } = entry;
    if (entry.keyId === null) {
      if (legacy < count) return broken('it has no key, after keyed entries (rewritten by someone without the key)');
      if (!same(legacyEntryHash(body), hash)) return broken('its content does not match its hash (edited or moved)');
      legacy += 1;
    } else {
      const key = keys.byId.get(entry.keyId);
      if (!key) return broken(`it is keyed with audit key "${entry.keyId}", which is not listed (AUDIT_KEYS)`);
      if (keys.superseded?.has(entry.keyId) && ownKeyed) {
        return broken(
          `it is keyed with "${entry.keyId}", derived from the codec keys, after entries keyed with AUDIT_KEYS`,
        );
      }
      ownKeyed ||= !keys.superseded?.has(entry.keyId);
      if (!same(entryMac(key, body), hash)) return broken('its content does not match its hash (edited or moved)');
    }
    if (previous && entry.seq !== previous.seq + 1) {
      return broken(`entries ${previous.seq + 1}–${entry.seq - 1} are missing (deleted)`);
    }
    if (previous && entry.prevHash !== previous.hash) {
      return broken('it does not follow the entry before it (reordered or replaced)');
    }
    if (checkpoint?.found === 'head' && entry.seq === checkpoint.head.seq) atCheckpoint = entry;
    previous = entry;
    count += 1;
  }
  const holds: Verification = { ok: true, entries: count, ...(legacy > 0 ? { legacy } : {}) };
  if (checkpoint === undefined) return holds;
  const next = (previous?.seq ?? 0) + 1;
  const cut = (why: string): Verification => ({ ok: false, entries: count, brokenAt: next, why });
  if (checkpoint.found === 'none') {
    // A trail not written to since it was keyed has had no checkpoint yet.
    return legacy === count ? holds : cut(`the checkpoint ${checkpointFile} is missing: a cut-off end would not show`);
  }
  if (checkpoint.found === 'invalid')
    return cut(`the checkpoint ${checkpointFile} cannot be trusted: ${checkpoint.why}`);
  if (keys.superseded?.has(checkpoint.keyId) && ownKeyed) {
    return cut(`the checkpoint ${checkpointFile} is signed with a key derived from the codec keys, after AUDIT_KEYS`);
  }
  const { head } = checkpoint;
  if (head.seq >= next) {
    const missing = head.seq === next ? `entry ${next} is` : `entries ${next}–${head.seq} are`;
    return cut(`${missing} missing: the checkpoint names entry ${head.seq}`);
  }
  if (atCheckpoint && atCheckpoint.hash !== head.hash) {
    return {
      ok: false,
      entries: count,
      brokenAt: head.seq,
      why: 'it is not the entry the checkpoint names (replaced)',
    };
  }
  return { ...holds, checkpoint: head.seq };
}
