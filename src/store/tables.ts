import type { ColumnType } from 'kysely';

/*
 * The project's own state beside Temporal's (docs/operating/access-and-audit.md): intake clients' credentials and the
 * audit trail. Temporal holds the workflows; this database holds who may reach them and who did.
 */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface IntakeClientsTable {
  /** The key's public part (`eik_<id>_…`): how a presented key is found. */
  id: string;
  name: string;
  /** The one tenant it acts for; null: every tenant (an administrator's client). */
  tenant: string | null;
  scopes: string[];
  /** SHA-256 of the key's secret part, hex: the secret itself is shown once and never stored. */
  secret_hash: string;
  created_at: CreatedAt;
  created_by: string;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

export interface AuditEntriesTable {
  /** 1, 2, 3…: a gap is a deleted entry. */
  seq: ColumnType<string, string | number, never>;
  at: ColumnType<Date, Date, never>;
  actor: string;
  tenant: string | null;
  action: string;
  workflow_id: string | null;
  batch_id: string | null;
  /** The names of the patient-data fields disclosed or changed, never their values. */
  fields: string[];
  source: string | null;
  outcome: string;
  /** The previous entry's `hash` (64 zeros for the first): an edit, deletion or reordering breaks the chain. */
  prev_hash: string;
  /** HMAC-SHA256 under the audit key `key_id` (src/audit/audit-entry.ts); a plain SHA-256 where `key_id` is null. */
  hash: string;
  /** The audit key of `hash`; null: written before the trail was keyed (migration 0010). */
  key_id: string | null;
}

export interface OperatorsTable {
  name: string;
  role: 'admin' | 'operator' | 'viewer';
  /** The tenants the operator sees; null: every tenant. */
  tenants: string[] | null;
  /** `name:scrypt:N:r:p:salt:hash`, as a CONSOLE_OPERATORS entry (src/access/operator-passwords.ts). */
  password: string;
  created_at: CreatedAt;
  created_by: string;
  disabled_at: Date | null;
  /** An `oidc:` entry's person once bound at their first sign-in: the provider's issuer and their subject there. */
  oidc_issuer: ColumnType<string | null, string | null | undefined, string | null>;
  oidc_subject: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ConsoleSessionsTable {
  id: string;
  /** The session as @fastify/session keeps it: the operator's name, the CSRF secret, a notice; never patient data. */
  data: ColumnType<unknown, string, string>;
  expires_at: Date;
}

export type EndpointStatus = 'active' | 'disabled';

export interface EventEndpointsTable {
  /** `ep_<hex>`. */
  id: string;
  tenant: string;
  url: string;
  /** The event types it receives (src/events catalogue). */
  events: string[];
  description: string | null;
  status: EndpointStatus;
  /** Why it stopped: `gone` (it answered 410), `failing` (every attempt failed for the whole window), `disabled`. */
  disabled_reason: string | null;
  disabled_at: Date | null;
  /** The signing secret (`whsec_…`), sealed with the codec keys (src/events/secret-box.ts); never in a log. */
  secret: string;
  /** During a rotation: the secret it replaced, sealed, which keeps signing beside it until it expires. */
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface EventsTable {
  /** `evt_<hex>`: the deliveries' `webhook-id`. */
  id: string;
  tenant: string;
  type: string;
  /** The thin event as delivered: identifiers and outcomes, never patient values. */
  payload: ColumnType<unknown, string, never>;
  created_at: Date;
}

export type DeliveryStatus = 'delivered' | 'failed' | 'gone' | 'undelivered';

export interface EventDeliveriesTable {
  id: ColumnType<string, never, never>;
  event_id: string;
  endpoint_id: string;
  /** 1, 2, 3… per delivery; 0 for an event that was never tried (its endpoint stopped first). */
  attempt: number;
  status: DeliveryStatus;
  status_code: number | null;
  /** A failure that had no HTTP answer: `timeout`, `network`, or the answer's class (`http_5xx`…). */
  error_type: string | null;
  latency_ms: number | null;
  attempted_at: Date;
  next_retry_at: Date | null;
}

/**
 * An event's delivery to one endpoint (docs/developing/event-delivery.md): `queued` until it is delivered or set aside.
 * The other states are an earlier version's (decision 80): `pending`, a first attempt under way in `owner`; `held`,
 * behind an earlier one; `handing`, being signalled to a dispatcher; `handed`, at the dispatcher.
 */
export type OutboxState = 'queued' | 'pending' | 'held' | 'handing' | 'handed';

export interface EventOutboxTable {
  seq: ColumnType<string, never, never>;
  event_id: string;
  endpoint_id: string;
  /** What the order is kept within: a verification's workflow id, `batch:<id>`, `patient:<id>` (orderKey). */
  order_key: string;
  state: OutboxState;
  owner: string;
  /** When its owner took it: an earlier version's `pending` or `handing` row older than a minute has lost its owner. */
  claimed_at: ColumnType<Date, Date | undefined, Date>;
  /** Failed attempts so far. */
  attempts: ColumnType<number, number | undefined, number>;
  /** When it may be attempted (again). */
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  /** The first failed attempt's time: the retry window counts from it. */
  first_failed_at: Date | null;
  /** While a worker attempts it: until when (a worker that dies leaves it to another after this). */
  claimed_until: Date | null;
}

/** A patient's latest copy for the front desk's day (src/visits): patient data only inside the sealed `copy`. */
export interface PatientCopiesTable {
  patient_id: string;
  tenant: string;
  /** The copy's `revision`: a lower one never replaces it. */
  revision: number;
  /** The whole copy as JSON, sealed with the codec keys (src/codec/sealing.ts). */
  copy: string;
  /** The patient's blind-index tokens (keyed hashes, src/blind-index). */
  tokens: string[];
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One appointment of a patient's copy: what the day is read, filtered and counted by; no patient value. */
export interface VisitsTable {
  /** `apt_<patient hex>_<hex>`. */
  appointment_id: string;
  patient_id: string;
  tenant: string;
  revision: number;
  /** YYYY-MM-DD (read back as text). */
  date_of_service: ColumnType<string, string, string>;
  /** `HH:MM`, local. */
  start_time: string | null;
  provider_group_id: string | null;
  payer_id: string | null;
  status: 'scheduled' | 'cancelled';
  /** Where its coverage stands (src/visits/coverage.ts), as of the copy. */
  coverage: string;
  /** The verification that answered its latest check. */
  check_workflow_id: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface Tables {
  intake_clients: IntakeClientsTable;
  audit_entries: AuditEntriesTable;
  operators: OperatorsTable;
  console_sessions: ConsoleSessionsTable;
  event_endpoints: EventEndpointsTable;
  events: EventsTable;
  event_deliveries: EventDeliveriesTable;
  event_outbox: EventOutboxTable;
  patient_copies: PatientCopiesTable;
  visits: VisitsTable;
}
