import type { DiscoverySummary } from '../../workflows/verification/verification.js';

/** A discovery in one line, as the CLI's `status` and the console's verification page show it. */
export function discoveryText(discovery: DiscoverySummary): string {
  const { discoveryId, status, successful, payerId, payerName } = discovery;
  if (status !== 'complete') return `${discoveryId} ${status}`;
  if (!successful) return `${discoveryId} ${status}, no coverage found`;
  return `${discoveryId} ${status}, found payer ${payerId ?? '?'}${payerName ? ` (${payerName})` : ''}`;
}
