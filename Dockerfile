# callsync image (worker, webhook receiver, one-off commands): Node 24 LTS, production dependencies
# only (no embedded PostgreSQL binaries: a deployment names its PostgreSQL in database.url), run as
# the image's unprivileged `node` user.
# The project compiled to JavaScript in a build stage (TypeScript is a dev dependency): a worker
# running dist/ holds about 40 MB less than one compiling TypeScript at load through tsx.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build

FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --chown=node:node . .
COPY --from=build --chown=node:node /app/dist ./dist
# Where compose's `keys` volume is mounted: created here so the volume starts owned by `node`.
RUN mkdir -p /app/keys && chown node:node /app/keys && chmod 700 /app/keys
ENV NODE_ENV=production
# Worker memory (docs/deployment.md "Worker memory"): two malloc arenas, the compiled worker.
ENV MALLOC_ARENA_MAX=2
ENV CALLSYNC_WORKFLOW_BUNDLE=/app/dist/workflow-bundle.js
# The worker's /readyz (worker.healthPort, from this variable); compose checks the server's own port.
ENV CALLSYNC_WORKER_HEALTH_PORT=8789
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "bin/healthcheck.mjs"]
USER node
CMD ["node", "--heap-growing-percent=50", "--max-semi-space-size=8", "dist/worker.js"]
