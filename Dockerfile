# callsync image (worker, webhook receiver, one-off commands): Node 24 LTS, production dependencies
# only (no embedded PostgreSQL binaries: a deployment names its PostgreSQL in database.url), run as
# the image's unprivileged `node` user.
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --chown=node:node . .
ENV NODE_ENV=production
# Worker memory (README, "Worker memory"): two malloc arenas, tsx's CommonJS hook only.
ENV MALLOC_ARENA_MAX=2
USER node
CMD ["node", "--heap-growing-percent=50", "--max-semi-space-size=8", "--require", "tsx/cjs", "worker.ts"]
