#!/bin/bash
# The Debian trixie root with the packages of packages.list and packages-<board>.list, made by
# mmdebstrap once and kept as a tarball named by the hash of those lists and this script, so a
# rebuild of our layer does not download Debian again. Prints the tarball's path.
#   base.sh CACHE_DIR
set -euo pipefail
cache=$1
dir=$PRINTYARD_IMAGE_DIR
lists=("$dir/packages.list" "$dir/packages-$PRINTYARD_BOARD.list")
key=$(cat "${lists[@]}" "$0" "$dir/build/debian-root.sh" | sha256sum | cut -c1-16)
tarball=$cache/base-$PRINTYARD_BOARD-$key.tar
if [ ! -f "$tarball" ]; then
  mkdir -p "$cache"
  packages=$(grep -hv '^#' "${lists[@]}" | grep . | paste -sd,)
  # debian-root.sh: no recommends, documentation or translations (the slots stay small), dpkg
  # without fsync, the initramfs made once at the end (initramfs-tools).
  INITRAMFS=yes "$dir/build/debian-root.sh" "$PRINTYARD_ARCH" "$packages" "$tarball"
fi
echo "$tarball"
