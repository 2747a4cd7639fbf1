import { sealingKeys } from '../codec/sealing.js';
import type { Config } from '../config.js';
import type { Store } from '../store/database.js';
import { EventOutbox } from './delivery/outbox.js';
import { EventEndpoints } from './endpoints.js';
import { EventLog } from './event-log.js';
import { SecretBox } from './secret-box.js';

/** A tenant's endpoints, the deliveries log, and the outbox deliveries are queued in. */
export interface EventServices {
  endpoints: EventEndpoints;
  log: EventLog;
  outbox: EventOutbox;
}

/** The secret box of the configuration: the codec keys, or none with ENCRYPTION_DISABLED. */
export async function secretBox(config: Pick<Config, 'codec'>): Promise<SecretBox> {
  return new SecretBox(await sealingKeys(config));
}

/** What the workers deliver with, and the intake API, the console and the CLI manage endpoints with. */
export function eventServices(store: Store, box: SecretBox): EventServices {
  return { endpoints: new EventEndpoints(store, box), log: new EventLog(store), outbox: new EventOutbox(store, box) };
}
