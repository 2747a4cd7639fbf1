# syntax=docker/dockerfile:1
# One image for every role of eligibility-orchestrator, chosen by the command:
#   docker run IMAGE worker | receiver | intake | codec-server | sandbox | <any other eligibility command>
# The code runs as TypeScript through tsx (a production dependency), exactly as `npm start` and the tests run it, so
# there is no separate compiled build to drift from what was tested.

ARG NODE_IMAGE=node:20-bookworm-slim

# Production dependencies only, from the lockfile. Debian (glibc), not Alpine: the Temporal worker's native core and
# the workflow bundler's swc ship prebuilt binaries for glibc on amd64 and arm64.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY workers ./workers
# The Temporal release and dynamic config (deploy/temporal/), read by the dev server's code at load.
COPY deploy ./deploy
# The workflow code is bundled once, here, from the same sources, instead of by every worker at start (seconds of
# webpack each time); workers load it from WORKER_WORKFLOW_BUNDLE. The worker bounds its own memory (it restarts
# itself with WORKER_HEAP_MB and MALLOC_ARENA_MAX applied), so nothing about memory is set here.
RUN node --import tsx workers/build-workflow-bundle.ts /app/lib/workflow-bundle.js
ENV WORKER_WORKFLOW_BUNDLE=/app/lib/workflow-bundle.js
# The files stay owned by root and read-only to the process; tsx keeps its cache in /tmp.
USER node
# Services are reached by their own ports (worker: none; webhook 4020, intake 4030, codec server 8888, sandbox 4010).
EXPOSE 4020 4030 8888 4010
ENTRYPOINT ["node", "/app/bin/eligibility.js"]
CMD ["--help"]
