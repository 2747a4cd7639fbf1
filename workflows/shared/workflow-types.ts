/**
 * The workflow types, as visibility queries and `WorkflowType` filters name them. A test checks each against its
 * workflow function's name, so a rename cannot leave a query finding nothing.
 */
export const WorkflowType = {
  verification: 'verificationWorkflow',
  discovery: 'discoveryWorkflow',
  runInput: 'runInputWorkflow',
  webhookSetup: 'webhookSetupWorkflow',
  batch: 'batchWorkflow',
  batchPage: 'batchPageWorkflow',
  governor: 'governorWorkflow',
  eventDispatcher: 'eventDispatcherWorkflow',
  patient: 'patientWorkflow',
  refresh: 'refreshWorkflow',
} as const;
export type WorkflowTypeName = (typeof WorkflowType)[keyof typeof WorkflowType];
