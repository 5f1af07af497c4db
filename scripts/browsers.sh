#!/usr/bin/env bash
# Chromium for rendering, its headless shell (what worker-render prefers) and Xvfb (the display worker-headful starts
# itself), installed with apt when missing and this runs as root; otherwise a line says what to install. Shared by
# `npm start` and `npm test`. Usage: browsers.sh <who> (the prefix of its messages).
set -euo pipefail
who=${1:-setup}
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "${CHROMIUM_PATH}" ] && command -v Xvfb >/dev/null 2>&1; then exit 0; fi
if { ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; } || ! command -v Xvfb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "$who: installing Chromium and Xvfb (apt) …" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium xvfb) >/dev/null \
      || echo "$who: Chromium and Xvfb could not be installed: rendered pages and /headful-browser will fail until they are (apt-get install chromium xvfb, or set CHROMIUM_PATH)" >&2
  else
    echo "$who: Chromium or Xvfb is missing: rendered pages and /headful-browser need them (apt-get install chromium xvfb, or set CHROMIUM_PATH)" >&2
  fi
fi
# The headless shell worker-render prefers (RENDER_CHROMIUM_PATH); without it, rendering runs on CHROMIUM_PATH.
if [ -z "${RENDER_CHROMIUM_PATH:-}" ] && [ ! -x /usr/lib/chromium/chromium-headless-shell ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "$who: installing chromium-headless-shell (apt) …" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell) >/dev/null \
    || echo "$who: chromium-headless-shell could not be installed: rendering runs on CHROMIUM_PATH" >&2
fi
exit 0
