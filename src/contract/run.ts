import { z } from 'zod';
import { Uuid } from './common.js';

/** A run's identifier: "flowRunId (string, UUID form)". */
export const FlowRunId = Uuid.describe('A run identifier, UUID form');

/** Input for a pending run: an object patched into the run's callback state context. */
export const RunInput = z.record(z.string(), z.unknown());
export type RunInput = z.infer<typeof RunInput>;

export const RunUpdateRequest = z.object({ input: RunInput });
export type RunUpdateRequest = z.infer<typeof RunUpdateRequest>;

/** Only `CREATED` is shown (after a successful update); other run statuses are not, so any string is accepted. */
export const RunUpdateResponse = z.object({ flowRunId: z.string().min(1), status: z.string().min(1) });
export type RunUpdateResponse = z.infer<typeof RunUpdateResponse>;
