import type { SandboxConfig } from './config.js';
import { createSandbox } from './server.js';

export interface RunSandboxOptions {
  /** Stops the sandbox when aborted (the entry points abort it on SIGINT / SIGTERM). */
  signal: AbortSignal;
  log?: (line: string) => void;
}

/** The sandbox on the configured host and port until `signal` aborts; resolves once it is closed. */
export async function runSandbox(config: SandboxConfig, options: RunSandboxOptions): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  const sandbox = await createSandbox(config);
  const url = await sandbox.listen();
  log(`Eligibility sandbox listening on ${url} (client id ${config.clientId})`);
  await new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
}
