#!/usr/bin/env bash
# `npm test`: set up, make sure Postgres, Redis and Chromium are there, typecheck, lint, then the whole Jest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

# LangChain JS's Firecrawl loader lives in its own tree (its peers conflict with Trawl's): test/clients/langchain.
langchain=test/clients/langchain
if [ ! -d "$langchain/node_modules" ] || [ "$langchain/package-lock.json" -nt "$langchain/node_modules/.package-lock.json" ]; then
  echo "test: installing LangChain's client for its test (npm ci in $langchain) …" >&2
  (cd "$langchain" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi

# Chromium, its headless shell and Xvfb (the /headful-browser tests run headed Chromium on a display the worker
# starts itself).
bash scripts/browsers.sh test

# The reliability suite runs a private Postgres it can stop and restart: it needs the server binaries (initdb).
if [ -z "${PG_BIN:-}" ] && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test: installing the Postgres server binaries (apt) …" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >/dev/null
  else
    echo "test: initdb is missing; install postgresql or set PG_BIN (test/reliability needs a private Postgres)" >&2
  fi
fi

# Real Postgres and Redis: the machine's own if reachable, else the embedded/local ones of `npm start`.
export TEST_PG_ADMIN_URL="${TEST_PG_ADMIN_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"
export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379}"
services_pid=""
cleanup() { if [ -n "$services_pid" ]; then kill "$services_pid" 2>/dev/null || true; wait "$services_pid" 2>/dev/null || true; fi; }
trap cleanup EXIT
if ! node dist/scripts/probe.js "$TEST_PG_ADMIN_URL" "$TEST_REDIS_URL" >/dev/null 2>&1; then
  echo "test: no Postgres/Redis at $TEST_PG_ADMIN_URL / $TEST_REDIS_URL: starting local ones …" >&2
  env_file=$(mktemp)
  node dist/scripts/test-services.js "$TEST_PG_ADMIN_URL" "$TEST_REDIS_URL" "$env_file" &
  services_pid=$!
  for _ in $(seq 1 600); do [ -s "$env_file" ] && break; sleep 0.1; done
  # shellcheck disable=SC1090
  source "$env_file"
  export TEST_PG_ADMIN_URL TEST_REDIS_URL
fi

npm run --silent typecheck
npm run --silent lint
node --experimental-vm-modules --no-warnings=ExperimentalWarning node_modules/jest/bin/jest.js --maxWorkers=2 "$@"
