import assert from 'node:assert/strict';
import * as workflows from '../../workflows/index.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';

describe('workflow types', () => {
  it('names every workflow the worker registers, by its function name', () => {
    assert.deepEqual(Object.values(WorkflowType).sort(), Object.keys(workflows).sort());
    for (const [name, fn] of Object.entries(workflows)) assert.equal(fn.name, name);
  });
});
