# topics-emulator: the Topics HTTP API emulator as a container.
#   docker build -t topics-emulator .
#   docker run --rm -p 4545:4545 -e TOPICS_EMULATOR_ADMIN_KEY=change-me topics-emulator
# Every setting is also an environment variable TOPICS_EMULATOR_<SETTING> (see the README).
# No admin key is baked in: inside a container the emulator listens beyond loopback, where the
# control plane needs TOPICS_EMULATOR_ADMIN_KEY (or TOPICS_EMULATOR_CONTROL=off).

# --- build: compile TypeScript with the dev dependencies ------------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would build before the sources are copied; no runtime dependency needs an install script.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# --- deps: production dependencies only -----------------------------------------------------
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# --- runtime ------------------------------------------------------------------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    TOPICS_EMULATOR_HOST=0.0.0.0 \
    TOPICS_EMULATOR_PORT=4545 \
    TOPICS_EMULATOR_GRPC_PORT=4546
WORKDIR /app
COPY package.json ./
COPY openapi ./openapi
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Files stay owned by root and read-only to the process; it runs as the image's unprivileged user.
USER node
# The Topics HTTP API, gRPC for the provider's SDKs, HTTPS when TOPICS_EMULATOR_HTTPS_PORT=4547 is set
# (its local authority is made in the container, served at /_emulator/tls/ca.pem), and momento-local's
# test-admin port when TOPICS_EMULATOR_TEST_ADMIN_PORT=9090 is set (it needs the admin key).
EXPOSE 4545 4546 4547 9090
# Node itself checks health: the slim image has no curl or wget.
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.TOPICS_EMULATOR_PORT || 4545) + '/_emulator/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/dist/cli/topics-emulator.js"]
