import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { DiscoveryId, PayerId, VerificationId, VerificationStage } from '../../../workflows/search-attributes.js';
import { firstInvalidParam } from '../../contract/index.js';
import { withDeadline, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { invalidRequestBody, ListQuery, type VerificationListItem } from '../schemas.js';

/**
 * `GET /verifications?stage=<stage>&limit=<n>`: a visibility query over `VerificationStage`, newest first. Only
 * search attributes are read, so nothing here can carry patient data; visibility lags the workflows by a moment.
 */
export function listRoute(app: FastifyInstance, deps: IntakeDeps): void {
  app.get('/verifications', async (request, reply) => {
    const query = ListQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(query.error)));
    const { stage, limit } = query.data;
    // `stage` is one of the Stage values, so it is safe inside the quotes.
    const filter = `WorkflowType = "verificationWorkflow"${stage ? ` AND VerificationStage = "${stage}"` : ''}`;
    try {
      const items = await withDeadline(deps, async () => {
        const found: z.infer<typeof VerificationListItem>[] = [];
        for await (const info of deps.client.workflow.list({ query: filter, pageSize: Math.min(limit, 100) })) {
          const attributes = info.typedSearchAttributes;
          found.push({
            workflowId: info.workflowId,
            stage: attributes.get(VerificationStage) ?? null,
            payerId: attributes.get(PayerId) ?? null,
            verificationId: attributes.get(VerificationId) ?? null,
            discoveryId: attributes.get(DiscoveryId) ?? null,
            status: info.status.name,
            startTime: info.startTime.toISOString(),
          });
          if (found.length >= limit) break;
        }
        return found;
      });
      return reply.code(200).send(items);
    } catch (err) {
      return replyWithError(request, reply, err);
    }
  });
}
