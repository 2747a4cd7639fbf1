import { loadSandboxConfig } from './config.js';
import { runSandbox } from './run-sandbox.js';

// `npm run sandbox`: the sandbox on SANDBOX_HOST:SANDBOX_PORT until interrupted.
async function run() {
  const config = loadSandboxConfig();
  const stopped = new AbortController();
  process.once('SIGINT', () => stopped.abort());
  process.once('SIGTERM', () => stopped.abort());
  await runSandbox(config, { signal: stopped.signal });
  process.exit(0);
}

run().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
