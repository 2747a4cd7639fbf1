export { createSandbox, type Sandbox, type Stats } from './server.js';
export { DEFAULT_DISCOVERY_PAYER_ID, SEED_PATIENTS, SEED_PAYERS, SEED_PROVIDER_GROUPS } from './seed.js';
export { NO_COVERAGE_LAST_NAME } from './discoveries.js';
export { RUN_SPECIALTY_CODE } from './verifications.js';
