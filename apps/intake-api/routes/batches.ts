import type { IntakeApp, IntakeDeps } from '../deps.js';
import { actOnBatchRoutes } from './batches-act.js';
import { readBatchRoutes } from './batches-read.js';
import { BATCH_BODY_LIMIT, submitBatchRoute, UPLOAD_TYPES } from './batches-submit.js';

/**
 * The batch routes (docs/integrating/batches.md), in their own scope: only they take CSV and JSONL bodies, and large
 * ones.
 */
export function batchRoutes(app: IntakeApp, deps: IntakeDeps): void {
  void app.register((scope: IntakeApp, _options, done) => {
    scope.addContentTypeParser(
      Object.keys(UPLOAD_TYPES),
      { parseAs: 'buffer', bodyLimit: BATCH_BODY_LIMIT },
      (_request, body, next) => next(null, body),
    );
    submitBatchRoute(scope, deps);
    readBatchRoutes(scope, deps);
    actOnBatchRoutes(scope, deps);
    done();
  });
}
