# plumb as a sidecar: serves the workspace mounted at /workspace over HTTP and MCP.
#   docker build -t plumb .
#   docker run -d --name plumb -p 127.0.0.1:7077:7077 -e PLUMB_TOKEN="$(openssl rand -hex 24)" \
#     -v "$PWD":/workspace:ro -v plumb-cache:/cache plumb
# Every install step is scripts/setup.sh, the README's set-up that CI runs: the image cannot drift from what is tested.
# Where no registry serves node:20-bookworm, scripts/container/base-images.sh makes it locally.
FROM node:20-bookworm

WORKDIR /opt/plumb
COPY . .
# Build-time settings a network may need come in as build secrets, mounted for this step only and never kept in the
# image (scripts/container/test.sh passes them from the host's npm configuration):
#   --secret id=npmrc,src=FILE    an npmrc for the build's npm: registry, proxy, `cafile=/run/secrets/npm-ca`,
#                                 `nodedir=/usr/local` (native modules build against the image's own Node headers
#                                 when nodejs.org cannot be reached)
#   --secret id=npm-ca,src=FILE   the CA bundle a TLS-intercepting proxy signs with (node trusts it too)
RUN --mount=type=secret,id=npmrc --mount=type=secret,id=npm-ca \
    if [ -f /run/secrets/npmrc ]; then export NPM_CONFIG_USERCONFIG=/run/secrets/npmrc; fi; \
    if [ -f /run/secrets/npm-ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm-ca; fi; \
    scripts/setup.sh
# The index volume must be writable by the user plumb runs as; /workspace is only read.
RUN ["install", "-d", "-o", "node", "-g", "node", "/cache", "/workspace"]

# 0.0.0.0 so the published port reaches plumb; the CLI refuses it without PLUMB_TOKEN unless
# PLUMB_ALLOW_UNPROTECTED=1 (or --allow-unprotected) says the network is trusted.
ENV PLUMB_HOST=0.0.0.0 \
    PLUMB_PORT=7077 \
    PLUMB_CACHE_DIR=/cache
VOLUME ["/cache"]
EXPOSE 7077
USER node
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PLUMB_PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/opt/plumb/dist/src/cli.js", "serve"]
CMD ["/workspace"]
