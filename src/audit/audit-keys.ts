import { hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { CodecKeyError, loadCodecKeys, parseKeys, type CodecKeys } from '../codec/keys.js';
import type { Config } from '../config.js';

/** One key of the audit trail: its id (written on each entry, not secret) and 32 secret bytes. */
export interface AuditKey {
  id: string;
  key: Buffer;
}

/**
 * The trail's key ring: `current` keys new entries and the checkpoint; `byId` verifies, so entries keyed before a
 * rotation still verify while their key stays listed.
 */
export interface AuditKeys {
  current: AuditKey;
  byId: ReadonlyMap<string, Buffer>;
  /**
   * The ids in `byId` derived from the codec keys while AUDIT_KEYS is set: they verify entries and a checkpoint only
   * until the first entry keyed with AUDIT_KEYS, so whoever holds the codec keys (a worker) cannot extend the trail.
   */
  superseded?: ReadonlySet<string>;
}

/** A key setting that cannot work; the message names the setting, never a key. */
export class AuditKeyError extends Error {
  override name = 'AuditKeyError';
}

/** What the codec keys are stretched with when the trail has no keys of its own: never the codec key itself. */
const DERIVED_INFO = 'eligibility-orchestrator audit trail v1';
/** Derived keys' ids say where they come from, so an entry never names a codec key id as an audit key's. */
const DERIVED_PREFIX = 'codec.';
const derivedId = (codecKeyId: string) => `${DERIVED_PREFIX}${codecKeyId}`;

/** The ring of an `id:base64,…` text (AUDIT_KEYS or its file); the current key is `currentKeyId`, else the first. */
export function auditKeysOf(text: string, source: string, currentKeyId?: string): AuditKeys {
  let keys: AuditKey[];
  try {
    keys = parseKeys(text, source);
  } catch (err) {
    throw new AuditKeyError((err as CodecKeyError).message);
  }
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  if (byId.size !== keys.length) throw new AuditKeyError(`${source}: a key id appears twice`);
  if (keys.some((k) => k.id.startsWith(DERIVED_PREFIX))) {
    throw new AuditKeyError(
      `${source}: ids beginning "${DERIVED_PREFIX}" are those of keys derived from the codec keys`,
    );
  }
  const id = currentKeyId ?? keys[0]!.id;
  const current = byId.get(id);
  if (!current) throw new AuditKeyError(`AUDIT_CURRENT_KEY_ID: "${id}" is not one of the ids in ${source}`);
  return { current: { id, key: current }, byId };
}

/** The ring derived from the codec's (HKDF-SHA256): rotating the codec keys rotates the trail's with them. */
export function derivedAuditKeys(codec: CodecKeys): AuditKeys {
  const derive = (id: string, key: Buffer) =>
    Buffer.from(hkdfSync('sha256', key, Buffer.from(derivedId(id)), DERIVED_INFO, 32));
  const byId = new Map([...codec.byId].map(([id, key]) => [derivedId(id), derive(id, key)]));
  const current = derivedId(codec.current.id);
  return { current: { id: current, key: byId.get(current)! }, byId };
}

/** A key made for one trail object alone (tests of other parts): its entries verify only through that object. */
export function ephemeralAuditKeys(): AuditKeys {
  const key = { id: `ephemeral.${randomBytes(6).toString('hex')}`, key: randomBytes(32) };
  return { current: key, byId: new Map([[key.id, key.key]]) };
}

/**
 * The trail's keys for a process: AUDIT_KEYS, else the file AUDIT_KEY_FILE names, else derived from the codec keys
 * (so a deployment that encrypts keys its trail without another secret). With neither, a process that writes the
 * trail does not start.
 */
export async function loadAuditKeys(config: Pick<Config, 'audit' | 'codec'>): Promise<AuditKeys> {
  const { audit } = config;
  // Codec keys given or in their file serve even with encryption off (a dev stack's from an earlier run).
  const derived = await loadCodecKeys(config.codec).then(derivedAuditKeys, noKeys);
  const own = await ownKeys(audit);
  if (own) {
    // Entries keyed with the derived keys before AUDIT_KEYS was set still verify while the codec keys stay listed.
    const superseded = new Set(derived?.byId.keys());
    return { current: own.current, byId: new Map([...(derived?.byId ?? []), ...own.byId]), superseded };
  }
  if (derived) return derived;
  throw new AuditKeyError(
    'the audit trail needs a key: set AUDIT_KEYS (`eligibility codec-key` makes one), or codec keys (CODEC_KEYS, CODEC_KEY_FILE) to derive one from',
  );
}

const noKeys = (err: unknown): undefined => {
  if (err instanceof CodecKeyError) return undefined;
  throw err;
};

async function ownKeys(audit: Config['audit']): Promise<AuditKeys | undefined> {
  if (audit.keys !== undefined) return auditKeysOf(audit.keys, 'AUDIT_KEYS', audit.currentKeyId);
  if (audit.keyFile === undefined) return undefined;
  const source = `AUDIT_KEY_FILE (${audit.keyFile})`;
  const text = await fs.readFile(audit.keyFile, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new AuditKeyError(`${source}: cannot read it (${err.code})`);
  });
  return auditKeysOf(text, source, audit.currentKeyId);
}
