#!/usr/bin/env bash
# Idempotent set-up shared by `npm start`, `npm test` and `npm run trawl`: dependencies, Prisma client, build.
set -euo pipefail
cd "$(dirname "$0")/.."
quiet() { if [ "${TRAWL_SETUP_VERBOSE:-}" = 1 ]; then "$@"; else "$@" >/dev/null; fi; }

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing dependencies (npm ci) …" >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
generated=libs/db/src/generated/prisma/client.ts
if [ ! -f "$generated" ] || [ prisma/schema.prisma -nt "$generated" ]; then
  echo "setup: generating the Prisma client …" >&2
  # The CLI wants to download a native schema engine that `generate` does not use (ENVIRONMENT.md).
  PRISMA_SCHEMA_ENGINE_BINARY=/bin/true quiet npx --no-install prisma generate
fi
quiet npm run --silent build
