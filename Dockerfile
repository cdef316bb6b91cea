# Icefront's container image.
#
#   docker build -t icefront .                      # or: podman build --format docker -t icefront .
#   docker run -d -p 8181:8181 \
#     -v /srv/icefront/config.yaml:/etc/icefront/config.yaml:ro \
#     -v /srv/warehouse:/var/lib/icefront/warehouse:ro \
#     -e ICEFRONT_TOKEN_SECRET \
#     icefront
#
# In the container Icefront listens on 0.0.0.0:8181 whatever `server.host`/`server.port` the
# config file says (the entrypoint passes --host and --port, which override the file): publish
# 8181 with -p. The config file is mounted at /etc/icefront/config.yaml (or pass
# `--config FILE` as the command); secrets such as ICEFRONT_TOKEN_SECRET come from the
# environment. The process runs as uid 10001, and writes nothing to its filesystem (a read-only
# root filesystem works).
#
# NODE_IMAGE is the base of both stages: the official slim image of Node 24, the newest LTS line,
# by default; node:22-bookworm-slim (the maintenance LTS) is supported too. A machine that cannot
# pull it builds on a local one instead (tools/deploy/base-image.sh, as the tests do, with the same
# official Node 24 binary):
#   podman build --format docker --build-arg NODE_IMAGE=localhost/icefront-node24-base:… .
# Behind a TLS-inspecting proxy, hand npm the proxy's CA bundle as a build secret (it is not kept
# in any layer): --secret id=ca-certificates,src=/etc/ssl/certs/ca-certificates.crt
ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: every dependency, then tsc into dist/ ----------------------------------------------
FROM ${NODE_IMAGE} AS build
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` (the build) runs below, once the sources are there; no dependency
# needs an install script for the build (esbuild's only serves tsx, which the build does not use).
RUN --mount=type=secret,id=ca-certificates \
    if [ -s /run/secrets/ca-certificates ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca-certificates; fi; \
    npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
COPY tsconfig.json tsconfig.build.json ./
COPY src/ src/
RUN npm run build

# --- runtime: production dependencies, dist/ and bin/ only --------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would run the build, which needs the dev dependencies; dist/ comes
# from the build stage instead.
RUN --mount=type=secret,id=ca-certificates \
    if [ -s /run/secrets/ca-certificates ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca-certificates; fi; \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error \
    && rm -rf /root/.npm
COPY --from=build /src/dist/ dist/
COPY bin/ bin/
# A user of its own (not the base image's `node`, uid 1000), numeric in USER so that Kubernetes'
# runAsNonRoot can check it; the files stay root's, read-only to it.
RUN groupadd --gid 10001 icefront \
    && useradd --uid 10001 --gid 10001 --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin icefront \
    && mkdir -p /etc/icefront
USER 10001:10001

EXPOSE 8181
# Liveness as docker/podman see it: GET /healthz with node's fetch (slim images have no curl).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:8181/healthz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop, Kubernetes) drains requests in flight for server.shutdown-grace-ms
# (10 s by default), then exits: give `docker stop -t` / terminationGracePeriodSeconds more.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "bin/icefront.js", "serve", "--host", "0.0.0.0", "--port", "8181"]
CMD ["--config", "/etc/icefront/config.yaml"]

LABEL org.opencontainers.image.title="Icefront" \
      org.opencontainers.image.description="One front door for many Apache Iceberg REST catalogs, with server-side scan planning" \
      org.opencontainers.image.licenses="Apache-2.0"
