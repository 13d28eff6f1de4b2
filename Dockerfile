# callsync worker image: Node 24 LTS with the project and its dependencies.
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund
COPY . .
ENV NODE_ENV=production
# Worker memory (README, "Worker memory"): two malloc arenas, tsx's CommonJS hook only.
ENV MALLOC_ARENA_MAX=2
CMD ["node", "--heap-growing-percent=50", "--max-semi-space-size=8", "--require", "tsx/cjs", "worker.ts"]
