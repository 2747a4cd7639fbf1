import { RESULT_COLUMNS, type BatchResultRow } from './results.js';

/**
 * A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, a tab or carriage return first) is prefixed with
 * `'`, so a value from the service can never run as one (CSV injection); then quoted when it holds a comma, a quote
 * or a line break (RFC 4180).
 */
function csvCell(value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The results as CSV that opens in a spreadsheet: a UTF-8 byte order mark (Excel reads UTF-8 only with it), a header
 * row of `RESULT_COLUMNS`, CRLF line ends.
 */
export function resultsCsv(rows: readonly BatchResultRow[]): string {
  const lines = [RESULT_COLUMNS.join(','), ...rows.map((row) => RESULT_COLUMNS.map((c) => csvCell(row[c])).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The results as JSON Lines: one object per row, fields in `RESULT_COLUMNS` order, absent ones left out. */
export function resultsJsonl(rows: readonly BatchResultRow[]): string {
  return rows.map((row) => `${JSON.stringify(row, RESULT_COLUMNS as unknown as string[])}\n`).join('');
}

export type ResultsFormat = 'csv' | 'jsonl';

export const RESULTS_MEDIA_TYPE: Record<ResultsFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};
