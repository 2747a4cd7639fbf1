import { createHmac } from 'node:crypto';

/**
 * A patient's id (issue 35, decision 0047): an HMAC-SHA256, under the install's patient id key, of the tenant and the
 * practice's own patient reference. A medical record number is itself an identifier HIPAA protects, so it never
 * becomes a workflow id, a search attribute or a URL; the id reveals nothing of it without the key, and the same
 * reference of the same tenant always finds the same patient. 128 bits, hex: short, and no collision in practice.
 */
export function patientIdOf(key: Buffer, tenant: string, patientRef: string): string {
  // A separator no tenant id holds: ("a", "b:c") and ("a:b", "c") must not meet.
  const mac = createHmac('sha256', key).update(tenant).update('\u0000').update(patientRef).digest('hex');
  return `pt_${mac.slice(0, 32)}`;
}

/** The shape of a patient id: a path parameter checked before it reaches Temporal. */
export const PATIENT_ID_PATTERN = /^pt_[0-9a-f]{32}$/;
