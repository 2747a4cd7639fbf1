import { engineCeilingScenario } from './engine-ceiling.js';
import { limitScenarios } from './limit-scenarios.js';
import type { TrafficScenario } from './scenario.js';
import { workerSettingsScenario } from './worker-settings.js';

/**
 * Every scenario of `npm run bench:traffic`, in the order they run; `--only` picks some by name. Traffic governance's
 * limit scenarios are here, after the engine's own ceiling on this machine (which they are also measured against); lanes (front desk) and tenants add theirs (lab/traffic/front-desk.ts, tenants.ts).
 */
export const scenarios: TrafficScenario[] = [engineCeilingScenario, ...limitScenarios, workerSettingsScenario];
