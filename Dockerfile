# syntax=docker/dockerfile:1
# One image for every process: the API (the default command), the upload worker and the exchange simulator;
# docker-compose.yml picks the command. test/dockerfile.e2e-spec.ts replays this file step by step and starts the API.
ARG NODE_IMAGE=node:22-bookworm-slim

# Build: needs the devDependencies (swc, the Prisma generator), so no NODE_ENV=production here, or npm ci leaves
# them out and the build fails with `swc: not found`.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# package*.json first: the install layer is reused while the dependencies do not change.
COPY package.json package-lock.json ./
# npm's cache lives in a BuildKit cache mount: kept between builds, never in a layer.
RUN --mount=type=cache,target=/root/.npm npm ci --prefer-offline --no-audit --no-fund
COPY . .
# dist/ holds apps/ and libs/ compiled, the generated Prisma client (libs/database/src/generated, not committed) included.
RUN npm run build

# Runtime: the production dependencies, the built code and the migrations; no sources, compilers or npm cache.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# --omit=optional too: with --omit=dev alone npm keeps the dev tools a production package names as an optional peer
# (the prisma CLI with its studio, typescript: 150 MB). The only optional production packages are msgpackr-extract
# (a native speed-up msgpackr does without) and pg-cloudflare (Cloudflare Workers only).
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --omit=optional --prefer-offline --no-audit --no-fund
COPY --from=build /app/dist ./dist
# Applied by the API and the worker at start (libs/database/src/migrator.ts finds prisma/migrations above dist/).
COPY prisma/migrations ./prisma/migrations
# DATA_DIR: sandbox mode's generated keys (a volume api and worker share in docker-compose.yml). Owned by the
# unprivileged user the processes run as; /app stays root's and read-only to them.
RUN mkdir -p /data && chown node:node /data
# MALLOC_ARENA_MAX: as `npm run start:api` and `start:worker` set it (README, "Production").
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=3000 MALLOC_ARENA_MAX=2
USER node
EXPOSE 3000
# Node's own fetch: slim images have no curl. The worker, which serves no HTTP, turns this off in docker-compose.yml.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The node flags of `npm run start:api` (memory settings; README, "Production").
CMD ["node", "--max-semi-space-size=4", "--max-old-space-size=512", "dist/apps/api/src/main.js"]
