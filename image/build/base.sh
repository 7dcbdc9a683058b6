#!/bin/bash
# The Debian trixie root with the packages of packages.list and packages-<board>.list, made by
# mmdebstrap once and kept as a tarball named by the hash of those lists and this script, so a
# rebuild of our layer does not download Debian again. Prints the tarball's path.
#   base.sh CACHE_DIR
set -euo pipefail
cache=$1
dir=$PRINTYARD_IMAGE_DIR
lists=("$dir/packages.list" "$dir/packages-$PRINTYARD_BOARD.list")
key=$(cat "${lists[@]}" "$0" | sha256sum | cut -c1-16)
tarball=$cache/base-$PRINTYARD_BOARD-$key.tar
if [ ! -f "$tarball" ]; then
  mkdir -p "$cache"
  packages=$(grep -hv '^#' "${lists[@]}" | grep . | paste -sd,)
  # No recommends, no documentation or translations: the slots stay small. The kernel's
  # postinst makes the initramfs inside the root (initramfs-tools).
  mmdebstrap --mode=root --variant=apt --architectures="$PRINTYARD_ARCH" \
    --components=main,non-free-firmware --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    trixie "$cache/part-$key.tar" http://deb.debian.org/debian >&2
  mv "$cache/part-$key.tar" "$tarball"
fi
echo "$tarball"
