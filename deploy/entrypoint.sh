#!/bin/sh
# Container entry point (under tini). worker-headful drives a headed Chromium: give it an Xvfb display unless one is
# set. Xvfb is started here rather than by xvfb-run so that SIGTERM reaches Node alone and the display outlives the
# jobs Node is finishing; it goes away with the container.
set -eu
case "$*" in
  *worker-headful*)
    if [ -z "${DISPLAY:-}" ]; then
      export DISPLAY=:99
      Xvfb "$DISPLAY" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
    fi
    ;;
esac
exec "$@"
