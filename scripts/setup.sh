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
# The server (swc) and the console (vite, into dist/console) have a stamp each: an edit to one rebuilds only it.
build_if_changed() { # <stamp> <npm script> <sources…>
  local stamp=$1 script=$2
  shift 2
  if [ ! -f "$stamp" ] || [ -n "$(find "$@" -newer "$stamp" -type f -print -quit 2>/dev/null)" ]; then
    local started
    started=$(mktemp)
    quiet npm run --silent "$script"
    mkdir -p "$(dirname "$stamp")" && mv "$started" "$stamp"
  fi
}
build_if_changed dist/.build-stamp build:server apps libs bench scripts .swcrc package.json
build_if_changed dist/.console-build-stamp build:console console libs/contracts package.json package-lock.json
