# syntax=docker/dockerfile:1
# One image for every role of eligibility-orchestrator, chosen by the command:
#   docker run IMAGE worker | receiver | intake | codec-server | sandbox | <any other eligibility command>
# It runs the compiled JavaScript of `npm run build` (dist/) with production dependencies only: no TypeScript loader,
# and the workflow code bundled once, here, instead of by every worker at start.

# Node 24: the newest LTS that Temporal's TypeScript SDK 1.24 tests on (its CI runs 20 and 24); 26 is LTS too but
# not yet in the SDK's matrix, so it is only in ours (.ci/run runs the tests on 22, 24 and 26).
ARG NODE_IMAGE=node:24-bookworm-slim

# Debian (glibc), not Alpine: the Temporal worker's native core and the workflow bundler's swc ship prebuilt binaries
# for glibc on amd64 and arm64.

# The build: every dependency (esbuild, tsx), the sources, `npm run build` -> dist/ and dist/workflow-bundle.js.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY workers ./workers
COPY apps ./apps
COPY sandbox ./sandbox
RUN npm run build

# Production dependencies only, from the lockfile.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
# The Temporal release of the project (versions, dynamic config), read by path from the package root.
COPY deploy/temporal ./deploy/temporal
# A worker loads dist/workflow-bundle.js by default; it bounds its own memory (it restarts itself with WORKER_HEAP_MB
# and MALLOC_ARENA_MAX applied), so nothing about memory is set here. The files stay owned by root, read-only to the
# process.
# The audit trail's checkpoint (AUDIT_CHECKPOINT_FILE in docker-compose.yml): a volume mounted here starts out owned
# by the process's user, who writes it after every append.
RUN mkdir -p /var/lib/eligibility/audit && chown node:node /var/lib/eligibility/audit
USER node
# Services are reached by their own ports (worker 4040 for /metrics and health; webhook 4020, intake 4030, codec server 8888, sandbox 4010).
EXPOSE 4040 4020 4030 8888 4010
ENTRYPOINT ["node", "/app/bin/eligibility.js"]
CMD ["--help"]
