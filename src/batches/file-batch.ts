import fs from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { BatchUploadError, readUpload } from './parse-upload.js';
import { contentBatchId, validateSubmission, type ValidatedSubmission } from './prepare.js';
import { batchExists, submitBatch, type SubmittedBatch } from './submit.js';
import { IntakeFileError, intakeFormat } from '../intake-files/read-requests.js';
import { resolveSandboxDiscovery, SANDBOX_DISCOVERY } from '../intake-files/sandbox-discovery.js';
import {
  type BatchAbout,
  type BatchItemOptions,
  type BatchRowRequest,
  type BatchTiming,
  batchWorkflowId,
} from '../../workflows/batch/batch.js';
import { plural, table } from '../text-format.js';

/** A batch file that cannot be read or parsed: the CLI reports its message in one line, with exit code 2. */
export class BatchFileError extends Error {
  override name = 'BatchFileError';
  readonly exitCode = 2;
}

/** A file read and validated as a whole before anything is submitted. */
export interface FileBatch {
  file: string;
  rows: number;
  validated: ValidatedSubmission;
}

/**
 * Reads and validates a whole intake file: a file that cannot be a batch (empty, not UTF-8, bad quoting, unknown
 * columns, over 10,000 rows) stops here, as do `@sandbox` rows without a sandbox to create their discoveries in.
 */
export async function readBatchFile(file: string, options: { sandbox: boolean }): Promise<FileBatch> {
  const name = path.basename(file);
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (err) {
    throw new BatchFileError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  try {
    const rows = readUpload(bytes, intakeFormat(file));
    const validated = validateSubmission(rows, { sandbox: true });
    if (validated.sandboxRows.length > 0 && !options.sandbox) {
      const which = validated.sandboxRows.join(', ');
      throw new BatchFileError(
        `discoveryId ${SANDBOX_DISCOVERY} (row${validated.sandboxRows.length > 1 ? 's' : ''} ${which}) asks for a ` +
          'sandbox discovery: give --sandbox-url <url> of a sandbox to create it in; nothing was submitted',
      );
    }
    return { file, rows: rows.length, validated };
  } catch (err) {
    if (err instanceof BatchUploadError || err instanceof IntakeFileError)
      throw new BatchFileError(`${name}: ${err.message}`);
    throw err;
  }
}

const clip = (text: string, max = 100) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** `<file>: n rows: v valid, i invalid`, then the invalid rows by row, line and field (never their values). */
export function fileSummary({ file, rows, validated }: FileBatch): string {
  const { valid, invalid } = validated;
  const head = `${path.basename(file)}: ${plural(rows, 'row')}: ${valid.length} valid, ${invalid.length} invalid`;
  if (invalid.length === 0) return head;
  return [
    head,
    table(
      ['row', 'line', 'result', 'field'],
      invalid.map((r) => [r.row, r.line, 'invalid', clip(`${r.param}: ${r.message}`)]),
    ),
  ].join('\n');
}

export interface SubmitFileOptions {
  taskQueue: string;
  batchId?: string;
  options: BatchItemOptions;
  /** Its label (default: the file's name) and who submits it. */
  about?: BatchAbout;
  sandboxUrl?: string;
  /** How the batch paces itself (its defaults otherwise). */
  timing?: Partial<BatchTiming>;
  /** Progress lines (pages stored). */
  log?: (line: string) => void;
}

/**
 * Submits a validated file as one batch, through Temporal directly. Its id, unless given, is a digest of the rows
 * before `@sandbox` discoveries are made, so submitting the same file again finds the batch and makes nothing new.
 * Temporal being unavailable is waited out for a minute (every step is idempotent).
 */
export async function submitFileBatch(client: Client, fileBatch: FileBatch, options: SubmitFileOptions) {
  const { valid, invalid } = fileBatch.validated;
  const itemOptions = options.options;
  const batchId = options.batchId ?? contentBatchId(valid, itemOptions);
  const base = { batchId, items: valid.length, invalid: invalid.length };
  if (await batchExists(client, batchId)) {
    return { ...base, workflowId: batchWorkflowId(batchId), duplicate: true, pages: 0 } satisfies SubmittedBatch;
  }
  const resolved: BatchRowRequest[] = await Promise.all(
    valid.map(async ({ row, request }) => ({
      row,
      request: await resolveSandboxDiscovery(request, options.sandboxUrl),
    })),
  );
  return submitBatch(
    client,
    {
      batchId,
      valid: resolved,
      invalid,
      options: itemOptions,
      about: { label: path.basename(fileBatch.file), ...options.about },
    },
    {
      taskQueue: options.taskQueue,
      ...(options.timing ? { timing: options.timing } : {}),
      retryUnavailableMs: 60_000,
      onPage: (stored, pages) => {
        if (pages > 5 && (stored % 10 === 0 || stored === pages)) options.log?.(`stored ${stored}/${pages} pages`);
      },
    },
  );
}
