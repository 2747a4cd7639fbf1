import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PatientsConfig } from '../config.js';

/** A patient id key setting that cannot work; the message names the setting, never a key. */
export class PatientIdKeyError extends Error {
  override name = 'PatientIdKeyError';
}

function parseKey(text: string, source: string): Buffer {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('#'));
  const key = Buffer.from(line ?? '', 'base64');
  if (key.length !== 32) throw new PatientIdKeyError(`${source}: must be base64 of 32 bytes, got ${key.length}`);
  return key;
}

/**
 * The key of patient ids: PATIENT_ID_KEY, else the file PATIENT_ID_KEY_FILE names; undefined when neither is set
 * (the patient routes then answer 503). Unlike the codec's keys it never rotates: every patient's id depends on it.
 */
export async function loadPatientIdKey(config: PatientsConfig): Promise<Buffer | undefined> {
  if (config.idKey !== undefined) return parseKey(config.idKey, 'PATIENT_ID_KEY');
  try {
    return parseKey(await fs.readFile(config.idKeyFile, 'utf8'), `PATIENT_ID_KEY_FILE (${config.idKeyFile})`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** `eligibility dev`: makes the key file on first run, so a local stack has patients without setup. */
export async function ensurePatientIdKeyFile(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return false;
  } catch {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const text = `# eligibility-orchestrator patient id key (local development only)\n${randomBytes(32).toString('base64')}\n`;
    await fs.writeFile(file, text, { mode: 0o600, flag: 'wx' });
    return true;
  }
}
