import assert from 'node:assert/strict';
import { tracedWorkflowBundle, workflowBundle } from '../../testing/bundle.js';

/** The webpack module ids of a bundle: `./workflows/x.ts`, `./node_modules/zod/...`. */
function moduleIds(code: string): string[] {
  return [...new Set([...code.matchAll(/^\/\*{3}\/ "([^"]+)"/gm)].map((m) => m[1] ?? ''))];
}

describe('the workflow bundle', function () {
  this.timeout(60_000);

  it('holds no zod and no module of src/contract: workflows take the validated type (issue 12)', async () => {
    const ids = moduleIds((await workflowBundle()).code);
    assert.ok(ids.includes('./workflows/verification/verification-workflow.ts'), 'module ids are read from the bundle');
    assert.deepEqual(
      ids.filter((id) => /(^|\/)node_modules\/zod\/|src\/contract\//.test(id)),
      [],
    );
  });

  it("holds OpenTelemetry's interceptors only in the traced bundle: their setup at every workflow start is no cost of a worker that does not trace", async () => {
    const otel = (ids: string[]) =>
      ids.filter((id) => id.includes('node_modules/@temporalio/interceptors-opentelemetry/'));
    assert.deepEqual(otel(moduleIds((await workflowBundle()).code)), []);
    assert.ok(otel(moduleIds((await tracedWorkflowBundle()).code)).length > 0);
  });
});
