import { createHmac, randomBytes } from 'node:crypto';
import { secretsEqual } from '../contract/secrets-equal.js';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { AuditKeys } from './audit-keys.js';

/** The trail's newest entry as a writer saw it: where the database cannot reach, so a cut tail is found. */
export interface AuditHead {
  seq: number;
  hash: string;
}

const CheckpointFile = z.object({
  v: z.literal(1),
  seq: z.number().int().positive(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  writtenAt: z.string(),
  keyId: z.string(),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});
type CheckpointFile = z.infer<typeof CheckpointFile>;

/** The checkpoint could not be written: the append that wanted it fails, as an unwritten entry does. */
export class AuditCheckpointError extends Error {
  override name = 'AuditCheckpointError';
}

export type CheckpointRead =
  | { found: 'none' }
  | { found: 'invalid'; why: string }
  | { found: 'head'; head: AuditHead; writtenAt: string; keyId: string };

/** HMAC-SHA256 of the checkpoint's fields under the audit key `keyId`, apart from entries' by its prefix. */
function signature(key: Buffer, c: Omit<CheckpointFile, 'v' | 'signature'>): string {
  const text = `eligibility-orchestrator audit checkpoint v1|${c.seq}|${c.hash}|${c.keyId}|${c.writtenAt}`;
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

/** The checkpoint in `file`, its signature checked against `keys`; why not, when it cannot be trusted. */
export async function readCheckpoint(file: string, keys: AuditKeys): Promise<CheckpointRead> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { found: 'none' };
    return { found: 'invalid', why: `it cannot be read (${(err as NodeJS.ErrnoException).code})` };
  }
  const parsed = CheckpointFile.safeParse(parseJson(text));
  if (!parsed.success) return { found: 'invalid', why: 'it is not a checkpoint this product writes' };
  const c = parsed.data;
  const key = keys.byId.get(c.keyId);
  if (!key) return { found: 'invalid', why: `it is signed with audit key "${c.keyId}", which is not listed` };
  if (!secretsEqual(c.signature, signature(key, c))) {
    return { found: 'invalid', why: 'its signature does not match (edited)' };
  }
  return { found: 'head', head: { seq: c.seq, hash: c.hash }, writtenAt: c.writtenAt, keyId: c.keyId };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Writes the trail's head to a checkpoint file after appends. A caller's `cover(head)` returns once the file names
 * that entry or a later one; appends that arrive while a write is under way share the next write, so a burst costs a
 * few writes, not one each. Each write replaces the file whole (a new file renamed over it), so a reader never sees
 * half of one. Processes that share the file may briefly leave an older head in it than the newest (each writes its
 * own): `verify` then checks a little less of the end, never more.
 */
export class CheckpointWriter {
  private wanted: AuditHead | undefined;
  private covered = 0;
  private writing: Promise<void> | undefined;
  private folder: Promise<unknown> | undefined;

  constructor(
    private readonly file: string,
    private readonly keys: AuditKeys,
  ) {}

  async cover(head: AuditHead): Promise<void> {
    if (!this.wanted || head.seq > this.wanted.seq) this.wanted = head;
    while (this.covered < head.seq) {
      this.writing ??= this.write(this.wanted).finally(() => (this.writing = undefined));
      await this.writing;
    }
  }

  private async write(head: AuditHead): Promise<void> {
    const { current } = this.keys;
    const body = { seq: head.seq, hash: head.hash, writtenAt: new Date().toISOString(), keyId: current.id };
    const text = `${JSON.stringify({ v: 1, ...body, signature: signature(current.key, body) })}\n`;
    const temporary = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await (this.folder ??= fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 }));
      await fs.writeFile(temporary, text, { mode: 0o600 });
      await fs.rename(temporary, this.file);
    } catch (err) {
      this.folder = undefined;
      await fs.rm(temporary, { force: true });
      throw new AuditCheckpointError(`the audit checkpoint ${this.file} could not be written`, { cause: err });
    }
    this.covered = Math.max(this.covered, head.seq);
  }
}
