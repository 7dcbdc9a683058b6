#!/bin/bash
# The production dependencies' native addons for a foreign root (arm64), compiled by that
# architecture's own compiler under qemu-user-static, in a separate build root (g++ and Node's
# headers from Debian trixie, made once and kept) so the image gets the addon but not the compiler.
# serialport ships a linux-arm64 prebuild (node-gyp-build picks it); onoff's epoll ships none.
#   native-addons.sh ROOT
#   native-addons.sh --tools     (only the build root, which build.sh makes beside the Debian root)
set -euo pipefail
root=$1
cache=$PRINTYARD_OUT/cache
tools=$cache/tools-$PRINTYARD_ARCH.tar
if [ ! -f "$tools" ]; then
  mkdir -p "$cache"
  "$PRINTYARD_IMAGE_DIR/build/debian-root.sh" "$PRINTYARD_ARCH" g++,libnode-dev "$tools"
fi
[ "$root" != --tools ] || exit 0
work=$(mktemp -d "$PRINTYARD_OUT/tools-root.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -C "$work" --numeric-owner -xpf "$tools"
app=$root/opt/printyard/node_modules
mkdir -p "$work/src"
cp -a "$app/epoll" "$app/nan" "$work/src/"
# epoll's binding.gyp is one source file with nan's headers: the same compile without node-gyp
# (which would fetch Node's headers from the network).
chroot "$work" g++ -shared -fPIC -O2 -std=gnu++17 -Wno-deprecated-declarations -Wno-cast-function-type \
  -I/usr/include/node -I/src/nan -o /src/epoll/epoll.node /src/epoll/src/epoll.cc
mkdir -p "$app/epoll/build/Release"
install -m 0755 "$work/src/epoll/epoll.node" "$app/epoll/build/Release/epoll.node"
file "$app/epoll/build/Release/epoll.node" >&2
