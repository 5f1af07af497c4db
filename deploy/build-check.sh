#!/usr/bin/env bash
# The image's build, without Docker: runs the RUN steps of deploy/Dockerfile's `build` stage, verbatim and in order,
# in a clean copy of the committed tree (`git archive HEAD`: no node_modules, dist, generated client or untracked
# file), then checks what the runtime stage relies on:
#   - every `COPY --from=build` source of the runtime stage exists;
#   - every entry point was built (gateway, the three workers, standalone, cli, the worker probe);
#   - dev dependencies are gone (prune ran) and yet every entry point's module graph loads from the production
#     dependencies alone (a package used at runtime but declared in devDependencies fails here).
# Not covered: the apt packages and the base image (no Docker engine here).
#   deploy/build-check.sh           run it (CI: .ci/run)      deploy/build-check.sh --print   list the steps only
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dockerfile="$repo/deploy/Dockerfile"

# Instructions of one stage, continuation lines joined, comments dropped: "<INSTRUCTION> <arguments>".
stage() {
  awk -v stage="$1" '
    /^[[:space:]]*#/ { next }
    { line = line $0 }
    /\\$/ { sub(/\\$/, "", line); next }
    {
      if (line ~ /^FROM /) { inside = (tolower(line) ~ (" as " stage "$")) }
      else if (inside && line ~ /[^[:space:]]/) { gsub(/[[:space:]]+/, " ", line); print line }
      line = ""
    }' "$dockerfile"
}
build_steps() { stage build | sed -n 's/^RUN //p'; }
runtime_sources() { stage runtime | sed -n 's/^COPY --from=build \(--chown=[^ ]* \)\{0,1\}//p' | awk '{ for (i = 1; i < NF; i++) print $i }'; }

if [ "${1:-}" = --print ]; then
  build_steps | sed 's/^/RUN /'
  runtime_sources | sed 's/^/NEEDS /'
  exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/trawl-build-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
git -C "$repo" archive HEAD | tar -x -C "$work/"
mkdir -p "$work/src" && (cd "$work" && find . -mindepth 1 -maxdepth 1 ! -name src -exec mv {} src/ \;)
cd "$work/src"
# Reuse the local npm cache when it has the packages (the commands themselves are the Dockerfile's).
export npm_config_prefer_offline=true
while IFS= read -r step; do
  echo "build-check: RUN $step" >&2
  bash -euo pipefail -c "$step"
done < <(build_steps)

fail() { echo "build-check: FAIL: $*" >&2; exit 1; }
while IFS= read -r source; do
  [ -e "$work$source" ] || fail "the runtime stage copies $source, which the build stage did not produce"
done < <(runtime_sources)
for app in gateway worker-http worker-render worker-headful standalone cli; do
  [ -f "dist/apps/$app/src/main.js" ] || fail "dist/apps/$app/src/main.js was not built"
done
[ -f dist/scripts/worker-probe.js ] || fail "dist/scripts/worker-probe.js was not built"
for dev in jest eslint @swc/cli; do [ ! -e "node_modules/$dev" ] || fail "dev dependency $dev is still installed (npm prune did not run)"; done
node dist/apps/cli/src/main.js help >/dev/null || fail "the CLI does not start with production dependencies"
node --input-type=module -e '
  for (const m of ["./dist/apps/gateway/src/bootstrap.js", "./dist/apps/standalone/src/standalone.js",
                   "./dist/libs/worker/src/index.js", "./dist/libs/queue/src/worker-probe.js"]) await import(m);
' || fail "an entry point's modules do not load with production dependencies"
echo "build-check: OK ($(du -sh node_modules | cut -f1) of production node_modules)" >&2
