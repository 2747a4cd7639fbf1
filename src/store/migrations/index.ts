import type { Migration } from 'kysely/migration';
import * as clientsAndAudit from './0001-clients-and-audit.js';
import * as auditAppend from './0002-audit-append.js';
import * as operators from './0003-operators.js';
import * as consoleSessions from './0004-console-sessions.js';
import * as events from './0005-events.js';
import * as eventOutbox from './0006-event-outbox.js';
import * as deliveryFromTheOutbox from './0007-delivery-from-the-outbox.js';
import * as operatorIdentities from './0008-operator-identities.js';
import * as signInThrottle from './0009-sign-in-throttle.js';
import * as keyedAuditChain from './0010-keyed-audit-chain.js';
import * as visits from './0011-visits.js';

/** Every migration, in order, by name: listed here rather than read from the folder, so a compiled build has them. */
export const migrations: Record<string, Migration> = {
  '0001-clients-and-audit': clientsAndAudit,
  '0002-audit-append': auditAppend,
  '0003-operators': operators,
  '0004-console-sessions': consoleSessions,
  '0005-events': events,
  '0006-event-outbox': eventOutbox,
  '0007-delivery-from-the-outbox': deliveryFromTheOutbox,
  '0008-operator-identities': operatorIdentities,
  '0009-sign-in-throttle': signInThrottle,
  '0010-keyed-audit-chain': keyedAuditChain,
  '0011-visits': visits,
};
