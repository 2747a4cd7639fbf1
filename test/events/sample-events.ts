import { randomUUID } from 'node:crypto';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';

/** A verification's event as its workflow makes it: a fresh id, now, about `workflowId`. */
export const verificationEvent = (
  tenant: string,
  workflowId: string,
  type: 'verification.created' | 'verification.completed' = 'verification.created',
): OutboundEvent => ({
  id: `evt_${randomUUID().replaceAll('-', '')}`,
  type,
  timestamp: new Date().toISOString(),
  tenant,
  data: { workflowId, stage: type === 'verification.created' ? 'created' : 'completed' },
  links: { self: `/verifications/${workflowId}` },
});
