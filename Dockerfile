# One image for every process (api, worker, exchange-sim); the compose file picks the command.
FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# npm install, not npm ci: the lock file lists only the optional native binaries of the platform it was made on.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build
# DATA_DIR of the compose file: a volume api and worker share, so that keys made in sandbox mode agree.
RUN mkdir -p /data && chown node:node /data
USER node
# The node flags of `npm run start:api` (memory settings; README, "Production").
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=512", "dist/apps/api/src/main.js"]
