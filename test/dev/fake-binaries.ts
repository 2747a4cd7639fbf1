import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A fresh folder under the system's temporary one, removed by the caller. */
export async function scratchDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'temporal-cli-test-'));
}

/** A shell script standing in for a program. */
export async function writeScript(file: string, body: string): Promise<string> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/** The body of a `temporal` that answers `--version` like the real one. */
export function fakeCliBody(version: string): string {
  return `echo "temporal version ${version} (Server 1.32.0, UI 2.54.1)"`;
}

export async function fakeCli(file: string, version: string): Promise<string> {
  return writeScript(file, fakeCliBody(version));
}
