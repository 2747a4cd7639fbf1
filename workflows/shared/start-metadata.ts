import { bullets, code } from './ui-text.js';

/**
 * The one-line summary and the short details block Temporal UI shows for a workflow from its start (`staticSummary`,
 * `staticDetails`). Built here for every workflow the project starts, by the starters (`startVerification`, the webhook
 * receiver, webhook registration) and by any workflow that starts children, so all of them read alike.
 *
 * Only identifiers and codes ever enter them, by construction: each builder picks named facts from its input, never a
 * whole object, and a patient value (name, date of birth, member id, address, the service's patient id) is not a fact.
 * They pass through the payload codec like any payload; a test asserts no patient value reaches them.
 */
export interface StartMetadata {
  staticSummary: string;
  staticDetails: string;
}

/**
 * The facts a summary or details block may show, in the order shown, with the label a person reads. A new fact is a
 * new row here, and shows wherever it is given.
 */
const FACTS = [
  { key: 'payerId', label: 'payer', inSummary: true },
  { key: 'specialtyCode', label: 'specialty', inSummary: true },
  { key: 'discoveryId', label: 'discovery', inSummary: true },
  { key: 'flowRunId', label: 'run', inSummary: true },
  { key: 'verificationId', label: 'verification', inSummary: true },
  { key: 'lane', label: 'asked', inSummary: true },
  { key: 'batchId', label: 'batch', inSummary: true },
  { key: 'tenant', label: 'tenant', inSummary: true },
  { key: 'callerId', label: 'caller id', inSummary: true },
  { key: 'items', label: 'items', inSummary: true },
  { key: 'page', label: 'page', inSummary: true },
  { key: 'endpointId', label: 'endpoint', inSummary: false },
  { key: 'url', label: 'url', inSummary: true },
  { key: 'events', label: 'events', inSummary: false },
] as const;

export type StartFacts = Partial<Record<(typeof FACTS)[number]['key'] | 'payerName', string>>;

/** Facts that come from outside an intake request: the starter knows them. */
export type StartContext = Pick<StartFacts, 'lane' | 'batchId' | 'tenant' | 'payerName'>;

/** A lane in a person's words: who waits for the verification. */
const LANE_WORDS: Record<string, string> = { 'front-desk': 'for the front desk', bulk: 'in bulk' };

/** `title` (what the workflow is) and the facts given, as a summary line and a Markdown details block. */
export function startMetadata(title: string, stated: StartFacts): StartMetadata {
  const facts = {
    ...stated,
    ...(stated.lane ? { lane: LANE_WORDS[stated.lane] ?? stated.lane } : {}),
    // A person reads the payer by its name; the id stays beside it, for searching.
    ...(stated.payerName && stated.payerId ? { payerId: `${stated.payerName} (${stated.payerId})` } : {}),
  };
  const given = FACTS.filter(({ key }) => typeof facts[key] === 'string' && facts[key] !== '');
  const inLine = given.filter((f) => f.inSummary).map(({ key, label }) => `${label} ${facts[key]!.slice(0, 100)}`);
  return {
    staticSummary: [title, ...inLine].join(' · '),
    // A blank line before the list: Temporal UI's Markdown reads a list right under a line as part of it.
    staticDetails: `**${title}**\n\n${bullets(given.map(({ key, label }) => [label, code(facts[key]!)])).join('\n')}`,
  };
}
