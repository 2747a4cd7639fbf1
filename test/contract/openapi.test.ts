import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_OPENAPI_OPTIONS, buildOpenApiDocument, renderOpenApiDocument } from '../../src/contract/openapi.js';

describe("contract: the eligibility service's OpenAPI document", () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(buildOpenApiDocument());
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
    assert.equal(validator.version, '3.1');
  });

  it('is up to date in docs/eligibility-service.openapi.json (run `npm run openapi`)', async () => {
    const written = await fs.readFile(new URL('../../docs/eligibility-service.openapi.json', import.meta.url), 'utf8');
    assert.equal(written, renderOpenApiDocument());
  });

  it('documents the configured defaults for the gaps of the spec', () => {
    const { service } = loadConfig('worker', {});
    assert.equal(DEFAULT_OPENAPI_OPTIONS.idempotencyHeader, service.idempotencyHeader);
    assert.deepEqual(DEFAULT_OPENAPI_OPTIONS.v1FieldNames, {
      npi: service.v1NpiField,
      taxonomy: service.v1TaxonomyField,
    });
  });

  it('resolves every $ref', async () => {
    const validator = new Validator();
    await validator.validate(buildOpenApiDocument());
    assert.doesNotThrow(() => validator.resolveRefs());
  });
});
