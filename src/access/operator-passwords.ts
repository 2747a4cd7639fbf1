import { randomBytes, scrypt, type ScryptOptions } from 'node:crypto';
import { ConfigError } from '../config.js';
import { secretsEqual } from '../contract/secrets-equal.js';

/**
 * Operators of the console and their password hashes, from CONSOLE_OPERATORS: `name:scrypt:N:r:p:salt:hash` entries
 * separated by commas (salt and hash base64url). scrypt from node:crypto, with its parameters kept in each entry so
 * that stronger ones can be introduced without invalidating the old entries.
 */
export interface OperatorEntry {
  name: string;
  params: { N: number; r: number; p: number };
  salt: Buffer;
  hash: Buffer;
}

/** N = 2^15, r = 8, p = 1: a fraction of a second and 32 MB per sign-in, OWASP's recommended scrypt settings. */
const DEFAULT_PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: OperatorEntry['params'], length: number): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, length, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Passwords of people are typed, not generated: 12 characters at least (the CLI and the console's pages alike). */
export const MIN_PASSWORD_LENGTH = 12;

/** What is wrong with a new password, or undefined; never quoting it. */
export const passwordProblem = (password: string): string | undefined =>
  password.length < MIN_PASSWORD_LENGTH ? `the password must be at least ${MIN_PASSWORD_LENGTH} characters` : undefined;

const invalid = (message: string) => new ConfigError([{ variable: 'CONSOLE_OPERATORS', message }]);

/** Parses CONSOLE_OPERATORS; the message names the entry by its position, never its content. */
export function parseOperators(text: string): Map<string, OperatorEntry> {
  const operators = new Map<string, OperatorEntry>();
  text.split(',').forEach((entry, i) => {
    const [name, scheme, n, r, p, salt, hash, ...rest] = entry.trim().split(':');
    const params = { N: Number(n), r: Number(r), p: Number(p) };
    const valid =
      name && scheme === 'scrypt' && salt && hash && rest.length === 0 && Object.values(params).every(Number.isInteger);
    if (!valid) throw invalid(`entry ${i + 1} is not name:scrypt:N:r:p:salt:hash`);
    if (operators.has(name)) throw invalid(`entry ${i + 1} repeats a name`);
    operators.set(name, { name, params, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') });
  });
  return operators;
}

/** One CONSOLE_OPERATORS entry for `name` with `password`. */
export async function operatorEntry(name: string, password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, DEFAULT_PARAMS, KEY_LENGTH);
  const { N, r, p } = DEFAULT_PARAMS;
  return `${name}:scrypt:${N}:${r}:${p}:${salt.toString('base64url')}:${hash.toString('base64url')}`;
}

/** A stand-in hashed for unknown names, so that a wrong name takes as long to refuse as a wrong password. */
const NOBODY: OperatorEntry = {
  name: '',
  params: DEFAULT_PARAMS,
  salt: randomBytes(16),
  hash: randomBytes(KEY_LENGTH),
};

/** The operator's name when `password` is theirs; undefined otherwise (whether the name exists is not revealed). */
export async function verifyOperator(
  operators: ReadonlyMap<string, OperatorEntry>,
  name: string,
  password: string,
): Promise<string | undefined> {
  const known = operators.get(name);
  const entry = known ?? NOBODY;
  const derived = await derive(password, entry.salt, entry.params, entry.hash.length);
  return secretsEqual(derived, entry.hash) && known ? known.name : undefined;
}
