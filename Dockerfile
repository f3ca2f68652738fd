# syntax=docker/dockerfile:1
# Faultline image: both entry points (api-server and operator) in one image, run as uid 65532.
#   docker build -t ghcr.io/faultline/faultline:0.1.0 .
# Pod command: node dist/api-server/src/main.js | node dist/operator/src/main.js

# --- build: install all dependencies, compile TypeScript, then drop dev dependencies ----------
FROM node:26-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY api-server/src api-server/src
COPY operator/src operator/src
COPY dashboard dashboard
RUN npx tsc -p tsconfig.build.json \
 && npx vite build dashboard \
 && npm prune --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# --- runtime: glibc Node 26 LTS (docs/adr/0015-node-lts.md; classic-level and snappy ship glibc prebuilds) ---
FROM node:26-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=0:0 /src/package.json ./package.json
COPY --from=build --chown=0:0 /src/node_modules ./node_modules
COPY --from=build --chown=0:0 /src/dist ./dist
COPY --from=build --chown=0:0 /src/dashboard/dist ./dashboard/dist
COPY --chown=0:0 crds ./crds
# Writable paths are volumes in the pod (data on a PVC, /tmp on an emptyDir): the root
# filesystem stays read-only, and nothing in /app is owned by the runtime user.
RUN mkdir -p /var/lib/faultline /etc/faultline && chown 65532:65532 /var/lib/faultline
USER 65532:65532
EXPOSE 8080 8081 8082 4317 4318 8125/udp 9090
VOLUME ["/var/lib/faultline"]
# glibc: buffers over 128 KB are mmapped and given back when freed (docs/memory.md)
ENV MALLOC_MMAP_THRESHOLD_=131072
CMD ["node", "--max-semi-space-size=64", "--expose-gc", "dist/api-server/src/main.js"]
