import { createHash, randomBytes } from 'node:crypto';

/*
 * Intake clients' keys: `eik_<id>_<secret>`. The id (12 hex digits) is public and finds the client; the secret (32
 * random bytes) is shown once and stored only as its SHA-256. A slow hash (scrypt) protects guessable passwords; a
 * 256-bit random secret cannot be guessed, and every request checks one, so a fast hash is the right one here.
 */

const KEY_PATTERN = /^eik_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export interface NewKey {
  id: string;
  /** The whole key, to show once. */
  key: string;
  secretHash: string;
}

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function newKey(id = randomBytes(6).toString('hex')): NewKey {
  const secret = randomBytes(32).toString('base64url');
  return { id, key: `eik_${id}_${secret}`, secretHash: hashSecret(secret) };
}

/** The id and secret of a presented key, or undefined when it is not one of ours. */
export function parseKey(key: string): { id: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? { id: match[1]!, secret: match[2]! } : undefined;
}
