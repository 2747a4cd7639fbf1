import fs from 'node:fs/promises';
import path from 'node:path';
import { builtTracedWorkflowBundle, builtWorkflowBundle } from '../src/package-layout.js';
import { bundleWorkflows, TRACED_FLAG } from './workflow-bundle.js';

/**
 * Bundles the workflow code. `npm run build` runs it compiled, writing dist/workflow-bundle.js and
 * dist/workflow-bundle-traced.js, which a compiled worker loads by default (the traced one when its tracing is on);
 * forked by a worker (`bundleWorkflowsInChild`), it sends the code of the bundle asked for back.
 */
async function run() {
  const send = process.send?.bind(process);
  if (send) {
    const { code } = await bundleWorkflows({ workflowsPath: process.argv[2], traced: process.argv[3] === TRACED_FLAG });
    await new Promise<void>((resolve, reject) =>
      send({ code }, undefined, {}, (err) => (err ? reject(err) : resolve())),
    );
    // The open channel would keep this process alive; the parent waits for its exit.
    process.disconnect();
    return;
  }
  for (const [file, traced] of [
    [builtWorkflowBundle, false],
    [builtTracedWorkflowBundle, true],
  ] as const) {
    const { code } = await bundleWorkflows({ traced });
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, code);
    console.log(`Workflow bundle written to ${file} (${(code.length / 1024 / 1024).toFixed(1)} MB)`);
  }
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
