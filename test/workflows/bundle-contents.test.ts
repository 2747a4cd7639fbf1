import assert from 'node:assert/strict';
import { moduleIds, workflowBundle } from '../../testing/bundle.js';

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
});
