// Workflow code imports this index, so everything re-exported here must be workflow-safe: no Node built-ins
// (webhook-signature.ts uses node:crypto and is imported by its own path).
export * from './auth.js';
export * from './common.js';
export * from './dates.js';
export * from './discovery.js';
export * from './errors.js';
export * from './patient.js';
export * from './payer.js';
export * from './provider-group.js';
export * from './run.js';
export * from './sandbox.js';
export * from './verification.js';
export * from './webhook.js';
export * from './verification-intake.js';
