/** Plain-text output: aligned tables and `name  value` blocks that read well in a terminal and in logs. */

export type Cell = string | number | undefined;

const show = (cell: Cell) => (cell === undefined || cell === '' ? '-' : String(cell));

/** A table with a header row; columns padded to their widest cell, the last one left ragged. */
export function table(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const cells = [headers.map(String), ...rows.map((row) => headers.map((_, i) => show(row[i])))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `name  value` lines, names padded; fields whose value is undefined are left out. */
export function fields(entries: readonly (readonly [string, Cell])[]): string {
  const shown = entries.filter(([, value]) => value !== undefined);
  const width = Math.max(0, ...shown.map(([name]) => name.length));
  return shown.map(([name, value]) => `${name.padEnd(width)}  ${show(value)}`).join('\n');
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
