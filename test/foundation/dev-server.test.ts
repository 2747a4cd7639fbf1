import assert from 'node:assert/strict';
import { temporal } from '@temporalio/proto';
import { PatientIndex, searchAttributeKeys, VisitMonths } from '../../workflows/shared/search-attributes.js';
import { testTemporal } from '../../testing/temporal.js';

describe('the Temporal dev server of the test run', () => {
  it('answers on its frontend', async () => {
    const { connection } = testTemporal();
    const info = await connection.workflowService.getSystemInfo({});
    assert.ok(info.serverVersion, 'the server reports its version');
  });

  it('has the eleven search attributes registered, the patient index and visit months as KeywordList, the rest Keyword', async () => {
    const { connection, server } = testTemporal();
    const { customAttributes } = await connection.operatorService.listSearchAttributes({
      namespace: server.namespace,
    });
    assert.equal(searchAttributeKeys.length, 11);
    for (const key of searchAttributeKeys) {
      assert.equal(
        customAttributes?.[key.name],
        key === PatientIndex || key === VisitMonths
          ? temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST
          : temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
        `${key.name} is of its type`,
      );
    }
  });
});
