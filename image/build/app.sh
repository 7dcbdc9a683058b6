#!/bin/bash
# The project as it goes to /opt/printyard: `npm run build` output, package.json, the lockfile, the
# ready flows and the production dependencies (`npm ci --omit=dev`). Native addons: on amd64 they
# are built here (same Node ABI as the image's Node 20); for arm64 the prebuilds of serialport,
# uWebSockets.js and sharp (arm64 packages) are used, and onoff's epoll is compiled by native-addons.sh.
#   app.sh yes|no STAGE_DIR      (yes: run `npm run build` first; no: keep a stage newer than dist/)
set -euo pipefail
build=$1
stage=$2
repo=$PRINTYARD_REPO
if [ "$build" = yes ]; then
  (cd "$repo" && npm run build >&2)
elif [ -f "$stage.done" ] && [ -z "$(find "$repo/dist" "$repo/package-lock.json" -newer "$stage.done" -print -quit)" ]; then
  echo "app.sh: $stage is newer than dist/, kept" >&2
  exit 0
fi
[ -f "$repo/dist/appliance/dashboard/main.js" ] || { echo "app.sh: no build in $repo/dist" >&2; exit 1; }
rm -rf "$stage" "$stage.done"
mkdir -p "$stage"
cp -a "$repo/dist" "$repo/package.json" "$repo/package-lock.json" "$repo/flows" "$stage/"
# Files the services read from the source tree (found from package.json: bundled profiles, fonts,
# the Node-RED nodes' HTML), every file of appliance/ that is not TypeScript.
(cd "$repo" && git ls-files -z appliance | grep -zv -e '\.ts$' -e '\.md$' | tar --null -T - -cf -) | tar -C "$stage" -xf -
# Tests and benchmarks are not part of the box.
rm -rf "$stage/dist/test" "$stage/dist/scripts"
if [ "$PRINTYARD_ARCH" = amd64 ]; then
  (cd "$stage" && npm ci --omit=dev --no-audit --no-fund >&2)
else
  # Install scripts would compile for the host; the arm64 root compiles them (customize.sh). The
  # platform's optional packages (sharp's @img/sharp-linux-arm64 and its libvips) are the target's.
  (cd "$stage" && npm ci --omit=dev --ignore-scripts --os=linux --cpu="$PRINTYARD_ARCH" --libc=glibc --no-audit --no-fund >&2)
fi
rm -f "$stage/package-lock.json"
touch "$stage.done"
