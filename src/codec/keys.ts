import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CodecConfig } from '../config.js';

export interface CodecKey {
  id: string;
  key: Buffer;
}

export interface CodecKeys {
  /** Encrypts every new payload. */
  current: CodecKey;
  /** Decrypts: the current key and every older one still listed, so rotation never strands running workflows. */
  byId: ReadonlyMap<string, Buffer>;
}

/** A key setting that cannot work; the message names the setting, never a key. */
export class CodecKeyError extends Error {
  override name = 'CodecKeyError';
}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Parses `id:base64,id:base64` (commas or newlines). `source` names the setting in errors. */
export function parseKeys(text: string, source: string): CodecKey[] {
  const entries = text
    .split(/[,\n]/)
    .map((e) => e.trim())
    .filter((e) => e && !e.startsWith('#'));
  if (entries.length === 0) throw new CodecKeyError(`${source}: no keys`);
  return entries.map((entry, i) => {
    const at = entry.indexOf(':');
    const id = entry.slice(0, at);
    if (at <= 0 || !KEY_ID.test(id)) throw new CodecKeyError(`${source}: entry ${i + 1} is not id:base64-key`);
    const key = Buffer.from(entry.slice(at + 1), 'base64');
    if (key.length !== 32) {
      throw new CodecKeyError(`${source}: key "${id}" must be 32 bytes (base64 of 32 random bytes), got ${key.length}`);
    }
    return { id, key };
  });
}

export function generateKey(id = `k${new Date().toISOString().slice(0, 10).replace(/-/g, '')}`): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}

async function readKeyFile(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CodecKeyError(`CODEC_KEY_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code})`);
  }
}

/** The keys of CODEC_KEYS, else of CODEC_KEY_FILE; throws naming the setting when neither gives usable keys. */
export async function loadCodecKeys(
  config: Pick<CodecConfig, 'keys' | 'currentKeyId' | 'keyFile'>,
): Promise<CodecKeys> {
  const fromFile = config.keys === undefined ? await readKeyFile(config.keyFile) : undefined;
  const source = config.keys !== undefined ? 'CODEC_KEYS' : `CODEC_KEY_FILE (${config.keyFile})`;
  const text = config.keys ?? fromFile;
  if (text === undefined) {
    throw new CodecKeyError(
      `CODEC_KEYS is not set and CODEC_KEY_FILE (${config.keyFile}) does not exist: set CODEC_KEYS ` +
        '(`eligibility codec-key` makes a key), or ENCRYPTION_DISABLED=true to store patient data in plaintext',
    );
  }
  return codecKeys(text, source, config.currentKeyId);
}

/** The keys of a `id:base64,…` text; the current one is `currentKeyId`, else the first. `source` names the setting. */
export function codecKeys(text: string, source: string, currentKeyId?: string): CodecKeys {
  const keys = parseKeys(text, source);
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  if (byId.size !== keys.length) throw new CodecKeyError(`${source}: a key id appears twice`);
  const currentId = currentKeyId ?? keys[0]!.id;
  const current = byId.get(currentId);
  if (!current) throw new CodecKeyError(`CODEC_CURRENT_KEY_ID: "${currentId}" is not one of the ids in ${source}`);
  return { current: { id: currentId, key: current }, byId };
}

/** `eligibility dev`: makes the key file on first run, so a local stack encrypts without any setup. */
export async function ensureKeyFile(file: string): Promise<boolean> {
  if ((await readKeyFile(file)) !== undefined) return false;
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(
    file,
    `# eligibility-orchestrator payload keys (local development only)\n${generateKey('local')}\n`,
    {
      mode: 0o600,
      flag: 'wx',
    },
  );
  return true;
}
