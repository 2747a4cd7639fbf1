import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Where `eligibility dev` keeps the intake API key it made, inside DEV_DATA_DIR. */
export const DEV_INTAKE_KEY_FILE = 'intake-api-key';

export interface DevIntakeKey {
  key: string;
  /** The file it was read from or written to; undefined when INTAKE_API_KEY was set. */
  file: string | undefined;
}

/**
 * The dev stack's intake key: INTAKE_API_KEY when set, else a random key made on the first run and kept in the data
 * directory (readable by its owner only), so scripts and curl commands keep working across runs. The intake API has
 * no default key anywhere else.
 */
export async function devIntakeKey(dataDir: string, configured: string | undefined): Promise<DevIntakeKey> {
  if (configured !== undefined) return { key: configured, file: undefined };
  const file = path.resolve(dataDir, DEV_INTAKE_KEY_FILE);
  const existing = await fs.readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (existing.length >= 32) return { key: existing, file };
  const key = randomBytes(32).toString('hex');
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `${key}\n`, { mode: 0o600 });
  return { key, file };
}
