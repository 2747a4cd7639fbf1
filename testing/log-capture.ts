import { Writable } from 'node:stream';

/** What a logger wrote, kept in memory: pass `sink` to `createLogger` and read the lines back. */
export interface LogCapture {
  sink: Writable;
  /** Every chunk as written (one line each from pino). */
  chunks: string[];
  text(): string;
  /** Each line parsed as JSON, the logger's format. */
  records<T = Record<string, unknown>>(): T[];
}

export function captureLogs(): LogCapture {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const text = () => chunks.join('');
  return {
    sink,
    chunks,
    text,
    records: <T>() =>
      text()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as T),
  };
}
