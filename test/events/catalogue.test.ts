import assert from 'node:assert/strict';
import { verificationEventData } from '../../workflows/verification/stage-events.js';
import {
  EVENT_CATALOGUE,
  EVENT_TYPES,
  stageEvent,
  type OutboundEvent,
} from '../../workflows/shared/event-catalogue.js';
import { STAGES } from '../../workflows/shared/stages.js';
import type { VerificationStatus } from '../../workflows/verification/verification.js';

/** A realistic verification's status, full of the patient values an event must never carry. */
const PATIENT = { firstName: 'Avery', lastName: 'Quinn', dateOfBirth: '04/12/1987', memberId: 'M9981234', state: 'WA' };
const status = (stage: VerificationStatus['stage']): VerificationStatus => ({
  stage,
  version: 'v2',
  callerId: 'mrn-Quinn-1987',
  payerId: '60054',
  discoveryId: 'disc_123',
  specialtyCode: 'PHT',
  verificationId: 'ver_456',
  discovery: { discoveryId: 'disc_123', status: 'complete', successful: true, payerId: '60054', payerName: 'Aetna' },
  runs: [
    { flowRunId: 'run_1', state: 'pending', requested: { fields: ['memberId'], description: `${PATIENT.memberId}?` } },
  ],
  pendingRuns: ['run_1'],
  lastError: {
    type: 'InvalidRequest',
    message: `patient ${PATIENT.lastName} born ${PATIENT.dateOfBirth}`,
    param: 'patient.dateOfBirth',
  },
});

describe('the event catalogue', () => {
  it('renders every verification event from a realistic verification with no patient value in it', () => {
    const rendered = new Set<string>();
    for (const stage of STAGES) {
      const type = stageEvent(stage);
      if (!type) continue;
      rendered.add(type);
      const event: OutboundEvent = {
        id: 'evt_0',
        type,
        timestamp: new Date().toISOString(),
        tenant: 'clinic-a',
        data: verificationEventData('verification-x', status(stage), 'batch-1'),
        links: { self: '/verifications/verification-x' },
      };
      const text = JSON.stringify(event);
      for (const value of [...Object.values(PATIENT), 'mrn-Quinn-1987', 'Aetna', '1987']) {
        assert.ok(!text.includes(value), `${type} (${stage}) carries ${value}: ${text}`);
      }
    }
    const verificationTypes = EVENT_TYPES.filter((t) => EVENT_CATALOGUE[t].about === 'verification');
    assert.deepEqual([...rendered].sort(), [...verificationTypes].sort());
  });

  it('says why a verification failed by reason and error type and field, never the message', () => {
    const data = verificationEventData('verification-x', status('timed-out'));
    assert.equal(data.reason, 'timed-out');
    assert.deepEqual(data.error, { type: 'InvalidRequest', param: 'patient.dateOfBirth' });
    assert.equal(verificationEventData('verification-x', status('completed')).reason, undefined);
  });
});
