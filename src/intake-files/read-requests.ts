import fs from 'node:fs/promises';
import path from 'node:path';
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import { FLAT_COLUMNS, flatToRequest, type FlatRequest } from './flat-request.js';

/**
 * Reading intake files: CSV (one patient per row, the columns of `FLAT_COLUMNS`) or JSONL (one request object per
 * line). Rows are numbered for people: `row` is the 1-based data row (the header and blank lines do not count) and
 * `line` the line of the file where it starts. Nothing here ever puts a cell's value in a message: it is patient data.
 */

/** A field that is wrong, named by its contract path (`param`), with a message that never repeats the value. */
export interface RowProblem {
  param: string;
  message: string;
}

/** One request of a file: the nested request, or the problem that kept it from being read. */
export interface IntakeRow {
  row: number;
  line: number;
  request?: unknown;
  problem?: RowProblem;
}

export type IntakeFormat = 'csv' | 'jsonl';

/** The file as a whole cannot be read (unknown format or columns, broken quoting); names a line, never a value. */
export class IntakeFileError extends Error {
  override name = 'IntakeFileError';
}

export function intakeFormat(file: string): IntakeFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  throw new IntakeFileError(`${path.basename(file)}: expected a .csv or .jsonl file`);
}

export async function readRequestsFile(file: string): Promise<IntakeRow[]> {
  const format = intakeFormat(file);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new IntakeFileError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return format === 'csv' ? parseCsvRequests(text) : parseJsonlRequests(text);
}

const newlines = (text: string) => text.split('\n').length - 1;

interface CsvRecord {
  record: string[];
  /** The record's text as read: the blank lines skipped before it, the record, its line break. */
  raw: string;
}

function parseCsvRecords(text: string): CsvRecord[] {
  try {
    // Without `columns`: the header is read here, so every record, the header included, comes with its raw text,
    // from which line numbers are counted (csv-parse's own line count drifts after skipped and multi-line records).
    return parseCsv(text, {
      bom: true,
      trim: true,
      skip_empty_lines: true,
      // A row with a missing or an extra field is reported as that row's problem instead of stopping the file.
      relax_column_count: true,
      raw: true,
    }) as unknown as CsvRecord[];
  } catch (err) {
    // csv-parse messages can quote the offending field; only its line is kept.
    const line = err instanceof CsvError ? (err as CsvError & { lines?: number }).lines : undefined;
    throw new IntakeFileError(`the CSV cannot be parsed${line ? ` at line ${line}` : ''} (check its quoting)`);
  }
}

export function parseCsvRequests(text: string): IntakeRow[] {
  return parseCsvTable(text, FLAT_COLUMNS).map(({ cells, ...row }) =>
    cells === undefined ? row : { ...row, request: flatToRequest(cells as FlatRequest) },
  );
}

/** One data row of a CSV table: its cells by column, or the problem that kept them from being read. */
export interface CsvTableRow {
  row: number;
  line: number;
  cells?: Record<string, string>;
  problem?: RowProblem;
}

/**
 * The data rows of a CSV whose header names columns of `columns` (any subset, any order; an unknown one stops the
 * file, naming it). Every intake file (verifications, appointments) is read through here.
 */
export function parseCsvTable(text: string, columns: readonly string[]): CsvTableRow[] {
  const [head, ...records] = parseCsvRecords(text);
  if (!head) return [];
  const header = head.record.map((name) => name.trim());
  // Named by position, never by text: a file without a header row would have a patient's values there.
  const unknown = header.flatMap((name, i) => (columns.includes(name) ? [] : [i + 1]));
  if (unknown.length > 0) {
    throw new IntakeFileError(
      `unknown CSV column${unknown.length > 1 ? 's' : ''} in the header: column${unknown.length > 1 ? 's' : ''} ` +
        `${unknown.join(', ')}; the columns are: ${columns.join(', ')}`,
    );
  }
  let linesBefore = newlines(head.raw);
  return records.map(({ record, raw }, index) => {
    const skipped = /^(?:[ \t]*\r?\n)*/.exec(raw)?.[0] ?? '';
    const at = { row: index + 1, line: 1 + linesBefore + newlines(skipped) };
    linesBefore += newlines(raw);
    if (record.length !== header.length) {
      return {
        ...at,
        problem: {
          param: 'columns',
          message: `the row has ${record.length} field${record.length === 1 ? '' : 's'}, the header ${header.length}`,
        },
      };
    }
    const cells: Record<string, string> = {};
    header.forEach((name, i) => (cells[name] = record[i]!));
    return { ...at, cells };
  });
}

export function parseJsonlRequests(text: string): IntakeRow[] {
  const rows: IntakeRow[] = [];
  text.split(/\r?\n/).forEach((content, index) => {
    if (content.trim() === '') return;
    const at = { row: rows.length + 1, line: index + 1 };
    try {
      rows.push({ ...at, request: JSON.parse(content) as unknown });
    } catch {
      // JSON.parse's message quotes the text around the error: patient data.
      rows.push({ ...at, problem: { param: 'body', message: 'the line is not valid JSON' } });
    }
  });
  return rows;
}

/**
 * An uploaded file's text, refused with `refuse`'s error when it is empty or not UTF-8 (a spreadsheet's legacy encoding
 * would garble names into values that look valid).
 */
export function uploadText(bytes: Uint8Array, refuse: (message: string) => Error): string {
  if (bytes.length === 0) throw refuse('the file is empty');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refuse('the file is not UTF-8 text (save it as "CSV UTF-8")');
  }
}
