import fs from 'node:fs/promises';
import { DEFAULT_OPENAPI_OPTIONS, renderOpenApiDocument } from './openapi.js';

// `npm run openapi`: writes docs/eligibility-service.openapi.json, the eligibility service's OpenAPI document, from the
// contract; test/contract/openapi.test.ts keeps the file equal to this output.
const OPENAPI_FILE = new URL('../../docs/eligibility-service.openapi.json', import.meta.url);

async function run() {
  await fs.mkdir(new URL('.', OPENAPI_FILE), { recursive: true });
  await fs.writeFile(OPENAPI_FILE, renderOpenApiDocument(DEFAULT_OPENAPI_OPTIONS));
  console.log(`wrote ${OPENAPI_FILE.pathname}`);
}

run().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
