# Switchyard gateway image: the same bundle `npm start` runs, as a non-root
# user, with the data directory (SQLite, the generated secret key, stored
# media) on a volume. Scale-out setups point SWITCHYARD_DATABASE_URL and
# SWITCHYARD_REDIS_URL at shared services (see deploy/ and the README).

# Node 24, the recommended line; 22 and 26 are supported too
# (`docker build --build-arg NODE_VERSION=22 .`), and 20 while it lasts. Both
# stages use the same Node: the V8 code cache the build makes is refused by another.
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
ARG NODE_VERSION
WORKDIR /app
# From Node 22 the SQLite binding (better-sqlite3 13) ships its addon inside the
# package: nothing to compile. On Node 20 it is better-sqlite3 12, which downloads
# a prebuilt addon, with the compilers as the fallback.
RUN if [ "${NODE_VERSION%%.*}" = "20" ]; then \
      apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*; \
    fi
COPY package.json package-lock.json ./
COPY scripts/install-sqlite-node20.mjs ./scripts/
# Lifecycle scripts run after the sources are in (the build needs them); the
# dependencies' own: esbuild's, and the SQLite binding's for this Node.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild esbuild && node scripts/install-sqlite-node20.mjs
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY console ./console
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
ARG NODE_VERSION
# MALLOC_TRIM_THRESHOLD_: glibc gives freed memory back past 128 kB instead of
# a threshold it raises on its own, which left 10-15 MB idle in the arenas of
# V8's GC threads (docs/decisions.md, "The old generation grows...").
ENV NODE_ENV=production \
    SWITCHYARD_HOST=0.0.0.0 \
    SWITCHYARD_PORT=8080 \
    SWITCHYARD_DATA_DIR=/data \
    MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/bundle ./dist/bundle
COPY --from=build /app/dist/console ./dist/console
# The young generation between 8 and 16 MB a semi-space (docs/decisions.md): at most Node 20's (Node 24 doubles it,
# for RSS and no throughput), 8 MB from the start (two scavenges at start-up instead of seven and a full collection).
# From Node 24 on only: Node 20 and 22 check these flags against every code cache, their own modules' included.
RUN case "${NODE_VERSION%%.*}" in 20|22) : > /app/node-flags ;; *) echo "--max-semi-space-size=16 --min-semi-space-size=8" > /app/node-flags ;; esac
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.SWITCHYARD_PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["sh", "-c", "exec node $(cat /app/node-flags) dist/bundle/main.js"]
