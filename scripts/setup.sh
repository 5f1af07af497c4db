#!/usr/bin/env bash
# Idempotent set-up shared by `npm start`, `npm test` and `npm run trawl`: dependencies, Prisma client, build.
set -euo pipefail
cd "$(dirname "$0")/.."
quiet() { if [ "${TRAWL_SETUP_VERBOSE:-}" = 1 ]; then "$@"; else "$@" >/dev/null; fi; }

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing dependencies (npm ci) …" >&2
  # A registry mirror without some platforms' optional binaries (e.g. darwin builds of @swc/core) makes `npm ci`
  # refuse the lock file; `npm install` then installs the same locked versions for this platform.
  ci_log=$(mktemp)
  if ! npm ci --no-audit --no-fund >"$ci_log" 2>&1; then
    grep -m1 -i "npm error" "$ci_log" >&2 || true
    echo "setup: npm ci refused the lock file; falling back to npm install" >&2
    npm install --no-audit --no-fund >&2
  fi
fi
generated=libs/db/src/generated/prisma/client.ts
if [ ! -f "$generated" ] || [ prisma/schema.prisma -nt "$generated" ]; then
  echo "setup: generating the Prisma client …" >&2
  # The CLI wants to download a native schema engine that `generate` does not use (ENVIRONMENT.md).
  PRISMA_SCHEMA_ENGINE_BINARY=/bin/true quiet npx --no-install prisma generate
fi
quiet npm run --silent build
