// The patient family's entry (issue 35): clients import it as `import type`.
export { patientWorkflow } from './patient-workflow.js';
export type { PatientActivities, PatientCopyActivities } from './activities.js';
