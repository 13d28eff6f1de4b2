# callsync worker image: Node 20 with the project and its dependencies.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund
COPY . .
ENV NODE_ENV=production
CMD ["npx", "tsx", "worker.ts"]
