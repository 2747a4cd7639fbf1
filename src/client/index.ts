export * from './eligibility-client.js';
export * from './errors.js';
export { MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-after.js';
export { undiciTransport, type Transport, type TransportRequest, type TransportResponse } from './http.js';
