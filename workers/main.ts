import { loadConfig } from '../src/config.js';
import { runWorker } from './run-worker.js';

/** The worker process: workflows and service-calling activities of the eligibility task queue. */
async function run() {
  const config = loadConfig();
  const stopped = new AbortController();
  process.once('SIGINT', () => stopped.abort());
  process.once('SIGTERM', () => stopped.abort());
  await runWorker(config, { signal: stopped.signal });
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
