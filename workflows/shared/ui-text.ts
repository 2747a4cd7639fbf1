// How summaries and details read in Temporal UI: one home for durations, identifiers and Markdown lines, shared by the
// starters (static summary and details), the workflows (current details) and activity and timer summaries.

/** Longest identifier shown; the intake caps identifiers at 100 characters, so only a start that bypassed it is cut. */
const MAX_ID_LENGTH = 100;

/** A duration as a person reads it: "15 s", "2 min", "1 h 30 min", "3 days". */
export function humanDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 1) return `${Math.max(0, Math.round(ms))} ms`;
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.round(hours / 24);
  return `${days} days`;
}

/** An instant for details: ISO 8601 in UTC to the second, which Temporal UI users compare with event times. */
export function instant(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An identifier in Markdown: in backticks so it is never read as formatting; backticks and line breaks removed. */
export function code(value: string): string {
  const clean = value.replace(/[`\r\n]/g, '').slice(0, MAX_ID_LENGTH);
  return `\`${clean}\``;
}

/** "`a`, `b` and `c`". */
export function codeList(values: readonly string[]): string {
  const shown = values.map(code);
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** Markdown bullet lines `- label: value` for the rows whose value is defined. */
export function bullets(rows: readonly (readonly [string, string | undefined])[]): string[] {
  return rows.filter(([, value]) => value !== undefined).map(([label, value]) => `- ${label}: ${value}`);
}
