/** What an intake client may do (docs/operating/access-and-audit.md). Each route of the intake API requires one. */
export const SCOPES = [
  'verifications:write',
  'verifications:read',
  'runs:answer',
  'batches:write',
  'batches:read',
  'events:manage',
  'admin',
] as const;

export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);
