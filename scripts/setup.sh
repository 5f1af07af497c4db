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
# Build when a source changed since the last build (a stamp taken before it starts, so an edit during a build is
# rebuilt next time): `npm start` then starts in a second, and never rewrites dist/ under a running process.
stamp=dist/.build-stamp
if [ ! -f "$stamp" ] || [ -n "$(find apps libs bench scripts .swcrc package.json -newer "$stamp" -type f -print -quit 2>/dev/null)" ]; then
  started=$(mktemp)
  quiet npm run --silent build
  mkdir -p dist && mv "$started" "$stamp"
fi
