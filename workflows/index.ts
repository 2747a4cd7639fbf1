// The workflows the worker registers (its bundle's entry). Only workflow functions are exported here: the bundler
// registers every export. Clients import a family's entry or `shared/`, never this file.
export * from './batch/index.js';
export * from './discovery/index.js';
export * from './events/index.js';
export * from './governor/index.js';
export * from './patient/index.js';
export * from './refresh/index.js';
export * from './verification/index.js';
