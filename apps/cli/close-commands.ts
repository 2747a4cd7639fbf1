import type { Command } from 'commander';

/** Edit distance with adjacent transpositions (`stauts` is one slip from `status`). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The commands a mistyped word most likely meant: those it begins (a name cut short), else those one slip away. */
export function closeCommands(word: string, names: readonly string[]): string[] {
  const cutShort = word.length >= 2 ? names.filter((name) => name.startsWith(word)) : [];
  if (cutShort.length > 0) return cutShort;
  return names.filter((name) => name.length > 2 && distance(word, name) === 1);
}

/**
 * Commander suggests the nearest name by edit distance alone, so `eligibility stat` was told `start`: here, on the
 * program and every command with subcommands, an unknown command is answered with `closeCommands`, or with none.
 */
export function suggestCloseCommands(command: Command): void {
  for (const sub of command.commands) if (sub.commands.length > 0) suggestCloseCommands(sub);
  command.on('command:*', (operands: string[]) => {
    const word = operands[0] ?? '';
    const names = command
      .createHelp()
      .visibleCommands(command)
      .map((c) => c.name());
    const close = closeCommands(word, names);
    const hint = close.length > 0 ? `\n(Did you mean ${close.join(' or ')}?)` : '';
    command.error(`error: unknown command '${word}'${hint}`, { code: 'commander.unknownCommand' });
  });
}
