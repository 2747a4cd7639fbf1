import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflows } from './workflow-bundle.js';

/**
 * Bundles the workflow code. `npm run build:workflows [file]` writes it to a file (default lib/workflow-bundle.js) for
 * `WORKER_WORKFLOW_BUNDLE`; forked by a worker (`bundleWorkflowsInChild(workflowsPath)`), it sends the code back.
 */
const defaultOutput = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'lib', 'workflow-bundle.js');

async function run() {
  const send = process.send?.bind(process);
  if (send) {
    const { code } = await bundleWorkflows(process.argv[2]);
    await new Promise<void>((resolve, reject) =>
      send({ code }, undefined, {}, (err) => (err ? reject(err) : resolve())),
    );
    // The open channel would keep this process alive; the parent waits for its exit.
    process.disconnect();
    return;
  }
  const { code } = await bundleWorkflows();
  const output = path.resolve(process.argv[2] ?? defaultOutput);
  await fs.mkdir(path.dirname(output), { recursive: true });
  await fs.writeFile(output, code);
  console.log(`Workflow bundle written to ${output} (${(code.length / 1024 / 1024).toFixed(1)} MB)`);
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
