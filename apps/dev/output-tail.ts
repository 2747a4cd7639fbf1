import type { ChildProcess } from 'node:child_process';

/**
 * Keeps the last lines a child process writes (its piped stdout and stderr, read for as long as it runs, since an
 * unread pipe would stall it), to explain a failed start.
 */
export function outputTail(child: ChildProcess, keep = 20): () => string {
  const lines: string[] = [];
  const read = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - keep));
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  return () => lines.join('\n');
}
