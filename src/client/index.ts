export * from './eligibility-client.js';
export * from './errors.js';
export { MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-after.js';
