#!/usr/bin/env bash
# `npm start`: set up, then become the product. `exec` (here and in package.json) leaves no shell between npm and
# Node, so the SIGTERM a process manager sends to `npm start` reaches Trawl, which stops its workers and local services.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Chromium (rendered pages start it on their first job) and Xvfb (worker-headful's display), when missing.
bash scripts/browsers.sh start
exec node dist/apps/standalone/src/main.js "$@"
