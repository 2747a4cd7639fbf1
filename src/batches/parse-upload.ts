import {
  IntakeFileError,
  parseCsvRequests,
  parseJsonlRequests,
  uploadText,
  type IntakeFormat,
  type IntakeRow,
} from '../intake-files/read-requests.js';
import { MAX_BATCH_ITEMS } from './limits.js';

/** An upload that cannot be a batch as a whole: the message names the problem (a line, a limit), never a value. */
export class BatchUploadError extends Error {
  override name = 'BatchUploadError';
}

/**
 * The rows of an uploaded file, CSV (the columns `eligibility batch` reads) or JSONL, checked as a whole before any
 * row is: not empty, UTF-8 (a spreadsheet's legacy encoding would garble names into values that look valid), parseable
 * (quoting, known columns), and at most `MAX_BATCH_ITEMS` rows. The CLI and the intake API read files through here.
 */
export function readUpload(bytes: Uint8Array, format: IntakeFormat): IntakeRow[] {
  const text = uploadText(bytes, (message) => new BatchUploadError(message));
  let rows: IntakeRow[];
  try {
    rows = format === 'csv' ? parseCsvRequests(text) : parseJsonlRequests(text);
  } catch (err) {
    if (err instanceof IntakeFileError) throw new BatchUploadError(err.message);
    throw err;
  }
  if (rows.length === 0) throw new BatchUploadError('the file holds no requests (a header and no rows?)');
  if (rows.length > MAX_BATCH_ITEMS) {
    throw new BatchUploadError(`the file holds ${rows.length} rows; a batch takes at most ${MAX_BATCH_ITEMS}`);
  }
  return rows;
}
