#!/bin/bash
# Builds the box's disk image from Debian's archive (image/README.md):
#   image/build.sh --board amd64|rpi [--out DIR] [--version V] [--keyring CA.pem] [--no-app-build]
# Steps, each a script of image/build/: the app staged with its production dependencies (app.sh),
# the Debian root made once per package list and kept (base.sh), our layer on a copy of it
# (customize.sh), the slot image and the boot/EFI partition (boot-<board>.sh), genimage for the disk.
# Runs as root (mmdebstrap's root mode, chroot, binfmt_misc for arm64).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
board=
out=
version=
keyring=
app_build=yes

usage() { sed -n '2,3p' "$0" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --board) board=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --version) version=$2; shift 2 ;;
    --keyring) keyring=$2; shift 2 ;;
    --no-app-build) app_build=no; shift ;;
    *) usage ;;
  esac
done
case "$board" in
  amd64) arch=amd64 ;;
  rpi) arch=arm64 ;;
  *) usage ;;
esac
[ "$(id -u)" = 0 ] || { echo "build.sh: run as root (mmdebstrap root mode, chroot)" >&2; exit 1; }
out=$(mkdir -p "${out:-$repo/build/image-$board}" && cd "${out:-$repo/build/image-$board}" && pwd)
version=${version:-$(node -p "require('$repo/package.json').version")}

export PRINTYARD_BOARD=$board PRINTYARD_ARCH=$arch PRINTYARD_VERSION=$version PRINTYARD_KEYRING=$keyring
export PRINTYARD_IMAGE_DIR=$here PRINTYARD_REPO=$repo PRINTYARD_OUT=$out
step() { printf '[image %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
export -f step

started=$(date +%s)
tools=
if [ "$arch" != amd64 ]; then
  "$here/build/binfmt.sh" "$arch"
  # The addons' build root (native-addons.sh) is an emulated install too: made beside the Debian root.
  "$here/build/native-addons.sh" --tools &
  tools=$!
fi
step "app: build and production dependencies"
"$here/build/app.sh" "$app_build" "$out/app"
step "base root file system (Debian trixie, $arch)"
base=$("$here/build/base.sh" "$out/cache")
if [ -n "$tools" ]; then wait "$tools"; fi
step "customize a copy of $base"
rm -rf "$out/rootfs"
mkdir -p "$out/rootfs"
tar -C "$out/rootfs" --numeric-owner -xpf "$base"
"$here/build/customize.sh" "$out/rootfs" "$out/app"
step "slot image and $board boot files"
"$here/build/boot-$board.sh" "$out/rootfs" "$out/parts"
step "disk image (genimage)"
rm -rf "$out/genimage-tmp" "$out/images" "$out/genimage-root"
mkdir -p "$out/images" "$out/genimage-root"
genimage --config "$here/genimage/$board.cfg" --inputpath "$out/parts" --outputpath "$out/images" \
  --rootpath "$out/genimage-root" --tmppath "$out/genimage-tmp" >&2
rm -rf "$out/genimage-tmp" "$out/genimage-root"
cp "$out/parts/rootfs.ext4" "$out/images/rootfs.ext4"
# The Pi's slot boot image goes into its update bundles beside the root (rauc/make-bundle.sh).
if [ "$board" = rpi ]; then cp "$out/parts/boot-slot.vfat" "$out/images/boot-slot.vfat"; fi
printf '{"board":"%s","arch":"%s","version":"%s","built":"%s","seconds":%d}\n' \
  "$board" "$arch" "$version" "$(date -u +%FT%TZ)" "$(($(date +%s) - started))" > "$out/images/build.json"
step "done in $(($(date +%s) - started)) s: $out/images/printyard-$board.img"
