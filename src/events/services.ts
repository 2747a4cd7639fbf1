import type { Client } from '@temporalio/client';
import { loadCodecKeys } from '../codec/keys.js';
import type { Config } from '../config.js';
import type { Store } from '../store/database.js';
import type { DeliveryPolicy } from '../../workflows/events/events.js';
import { deliveryPolicy, EventDispatchers } from './dispatchers.js';
import { EventEndpoints } from './endpoints.js';
import { EventLog } from './event-log.js';
import { SecretBox } from './secret-box.js';

export interface EventServices {
  endpoints: EventEndpoints;
  log: EventLog;
  dispatchers: EventDispatchers;
}

/** The secret box of the configuration: the codec keys, or none with ENCRYPTION_DISABLED. */
export async function secretBox(config: Pick<Config, 'codec'>): Promise<SecretBox> {
  return new SecretBox(config.codec.disabled ? undefined : await loadCodecKeys(config.codec));
}

/** What the intake API and the CLI manage endpoints with (docs/integrating/events.md). */
export function eventServices(
  store: Store,
  box: SecretBox,
  client: Client,
  config: Pick<Config, 'events'>,
  policy: Partial<DeliveryPolicy> = {},
): EventServices {
  const endpoints = new EventEndpoints(store, box);
  return {
    endpoints,
    log: new EventLog(store),
    dispatchers: new EventDispatchers(client, deliveryPolicy(config.events, policy), endpoints),
  };
}
