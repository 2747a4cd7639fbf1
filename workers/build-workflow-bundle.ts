import fs from 'node:fs/promises';
import path from 'node:path';
import { builtWorkflowBundle } from '../src/package-layout.js';
import { bundleWorkflows } from './workflow-bundle.js';

/**
 * Bundles the workflow code. `npm run build` runs it compiled, writing dist/workflow-bundle.js (or the file given),
 * which a compiled worker loads by default; forked by a worker (`bundleWorkflowsInChild(workflowsPath)`), it sends the
 * code back.
 */
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
  const output = path.resolve(process.argv[2] ?? builtWorkflowBundle);
  await fs.mkdir(path.dirname(output), { recursive: true });
  await fs.writeFile(output, code);
  console.log(`Workflow bundle written to ${output} (${(code.length / 1024 / 1024).toFixed(1)} MB)`);
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
