import type { LegacyPatient, Payer } from '../src/contract/index.js';

/**
 * The sandbox's seed data, restored by `POST /sandbox/reset`. Payer names are fictional; the ids only look like the
 * numeric payer ids of real clearinghouses. Every id and alias id below is unique across payers.
 */
export const SEED_PAYERS: readonly Payer[] = [
  {
    payerId: '60054',
    payerName: 'Evergreen Health Plan',
    aliasPayerIds: ['EVG01', '60055'],
    aliasPayerNames: ['Evergreen Health', 'Evergreen Health Plan of the Northwest'],
  },
  {
    payerId: '87726',
    payerName: 'Summit Mutual Insurance',
    aliasPayerIds: ['SMT87', '87727', '87728'],
    aliasPayerNames: ['Summit Mutual', 'Summit Mutual Community Plan'],
  },
  {
    payerId: '62308',
    payerName: 'Harborview Health Alliance',
    aliasPayerIds: ['HBV62'],
    aliasPayerNames: ['Harborview Health'],
  },
  {
    payerId: '61101',
    payerName: 'Prairie State Benefits',
    aliasPayerIds: ['PSB11', '61102'],
    aliasPayerNames: ['Prairie State', 'Prairie State Medicare Advantage'],
  },
  {
    payerId: '84980',
    payerName: 'Lone Star Blue Plan',
    aliasPayerIds: ['LSB84', '84981'],
    aliasPayerNames: ['Lone Star Blue'],
  },
  {
    payerId: '39026',
    payerName: 'Great Lakes Administrators',
    aliasPayerIds: ['GLA39'],
    aliasPayerNames: ['GLA Benefits'],
  },
  {
    payerId: '94265',
    payerName: 'Redwood Coast Medical',
    aliasPayerIds: ['RCM94', '94266'],
    aliasPayerNames: ['Redwood Coast', 'Redwood Coast Medi-Plan'],
  },
  {
    payerId: '25133',
    payerName: 'Keystone Family Health',
    aliasPayerIds: ['KFH25'],
    aliasPayerNames: ['Keystone Family'],
  },
  {
    payerId: '13551',
    payerName: 'Magnolia Community Care',
    aliasPayerIds: ['MCC13', '13552'],
    aliasPayerNames: ['Magnolia Care'],
  },
  {
    payerId: '77027',
    payerName: 'Desert Sun Health',
    aliasPayerIds: ['DSH77'],
    aliasPayerNames: ['Desert Sun', 'Desert Sun Health Exchange'],
  },
  {
    payerId: '52189',
    payerName: 'Atlantic Federal Employees Plan',
    aliasPayerIds: ['AFE52', '52190'],
    aliasPayerNames: ['Atlantic FEP'],
  },
  {
    payerId: '36273',
    payerName: 'Heartland Medicaid Partners',
    aliasPayerIds: ['HMP36'],
    aliasPayerNames: ['Heartland Medicaid'],
  },
];

/** The payer a successful discovery finds when it was created without a `payerId`. */
export const DEFAULT_DISCOVERY_PAYER_ID = '60054';

/** Legacy patients for `GET /v1/patients/{patientId}` and `POST /v1/verifications`. */
export const SEED_PATIENTS: readonly LegacyPatient[] = [
  {
    patientId: '1000001',
    firstName: 'Avery',
    lastName: 'Quinn',
    dateOfBirth: '04/12/1987',
    state: 'WA',
    address: '1200 Pine St, Seattle, WA 98101',
    created: '2023-02-14T09:30:00.000Z',
    updated: '2024-06-01T16:05:00.000Z',
  },
  {
    patientId: '1000002',
    firstName: 'Jordan',
    lastName: 'Reyes',
    dateOfBirth: '11/03/2015',
    state: 'TX',
    address: '48 Elm Ave, Austin, TX 78701',
    created: '2023-05-20T14:00:00.000Z',
    updated: '2023-05-20T14:00:00.000Z',
  },
  {
    patientId: '1000003',
    firstName: 'Morgan',
    lastName: 'Ellis',
    dateOfBirth: '07/29/1962',
    state: 'NY',
    address: '300 W 57th St Apt 4B, New York, NY 10019',
    created: '2022-11-02T08:15:00.000Z',
    updated: '2024-01-09T10:45:00.000Z',
  },
  {
    patientId: '1000004',
    firstName: 'Riley',
    lastName: 'Nocoverage',
    dateOfBirth: '01/30/1999',
    state: 'FL',
    address: '9 Ocean Dr, Miami, FL 33139',
    created: '2024-03-03T12:00:00.000Z',
    updated: '2024-03-03T12:00:00.000Z',
  },
];

/** A provider group present from the start, so tests can scope a verification without creating one. */
export const SEED_PROVIDER_GROUPS = [
  {
    providerGroupId: '3f2b8c1e-9d4a-4e7b-8a51-2c6d0f9e7a13',
    name: 'Sandbox Behavioral Health',
    tin: '123456789',
    tinType: 'EIN',
  },
] as const;
