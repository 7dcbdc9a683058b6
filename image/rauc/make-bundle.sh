#!/bin/sh
# Builds and signs a RAUC update bundle holding the root file system image for the rootfs slots
# and, for the Pi, the slot boot image (kernel, initramfs, device trees, firmware) for the boot
# slots, the rootfs slots' children:
#   make-bundle.sh --board amd64|rpi --version V --rootfs ROOTFS.ext4 [--boot BOOT.vfat] --cert C --key K
#                  [--keyring CA] [--format verity|plain] [--build ID] --out OUT.raucb
# --boot (rpi only) defaults to boot-slot.vfat beside ROOTFS.ext4, which image/build.sh puts in
# the same images/ folder, so a bundle's kernel is the one its root's modules were built for.
# `compatible` is printyard-<board> (the system configs' value), the version goes into the
# manifest's [update] section, where `rauc info` shows it and the dashboard compares it with the
# installed one (downgrades need ?allow_downgrade=true). --keyring makes `rauc bundle` check the
# new signature against that CA right away. The format is verity (the payload is checked block by
# block through dm-verity while it is installed); `plain` exists only for tests on hosts without
# device-mapper, and the box's system configs refuse it (`bundle-formats=-plain`).
set -eu

usage() {
  echo "usage: $0 --board amd64|rpi --version V --rootfs ROOTFS.ext4 [--boot BOOT.vfat] --cert C --key K [--keyring CA]" \
    "[--format verity|plain] [--build ID] --out OUT.raucb" >&2
  exit 2
}

board='' version='' rootfs='' boot='' cert='' key='' keyring='' out='' format=verity build=''
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case $1 in
    --board) board=$2 ;;
    --version) version=$2 ;;
    --rootfs) rootfs=$2 ;;
    --boot) boot=$2 ;;
    --cert) cert=$2 ;;
    --key) key=$2 ;;
    --keyring) keyring=$2 ;;
    --format) format=$2 ;;
    --build) build=$2 ;;
    --out) out=$2 ;;
    *) usage ;;
  esac
  shift 2
done
[ -n "$board" ] && [ -n "$version" ] && [ -n "$rootfs" ] && [ -n "$cert" ] && [ -n "$key" ] && [ -n "$out" ] || usage
case $board in amd64 | rpi) ;; *) echo "$0: --board must be amd64 or rpi" >&2; exit 2 ;; esac
case $format in verity | plain) ;; *) echo "$0: --format must be verity or plain" >&2; exit 2 ;; esac
# RAUC keeps the version as a string; we compare it as dotted numbers with an optional -suffix.
echo "$version" | grep -Eq '^[0-9]+(\.[0-9]+)*(-[0-9A-Za-z.-]+)?$' || { echo "$0: --version must look like 1.2.3" >&2; exit 2; }
[ -f "$rootfs" ] || { echo "$0: no root file system image at $rootfs" >&2; exit 1; }
if [ "$board" = rpi ]; then
  [ -n "$boot" ] || boot=$(dirname "$rootfs")/boot-slot.vfat
  [ -f "$boot" ] || { echo "$0: no boot image at $boot (the Pi's bundles carry the slot's kernel: --boot)" >&2; exit 1; }
elif [ -n "$boot" ]; then
  echo "$0: --boot is for --board rpi (the twin's kernel is in its root file system)" >&2
  exit 2
fi
[ -n "$build" ] || build=$(date -u +%Y%m%dT%H%M%SZ)

content=$(mktemp -d)
trap 'rm -rf "$content"' EXIT
# A hard link when the image is on the same file system: root file systems are large.
ln "$rootfs" "$content/rootfs.ext4" 2>/dev/null || cp "$rootfs" "$content/rootfs.ext4"
if [ -n "$boot" ]; then ln "$boot" "$content/boot.vfat" 2>/dev/null || cp "$boot" "$content/boot.vfat"; fi
cat >"$content/manifest.raucm" <<EOF
[update]
compatible=printyard-$board
version=$version
build=$build
description=Printyard $version for $board

[bundle]
format=$format

[image.rootfs]
filename=rootfs.ext4
EOF
if [ -n "$boot" ]; then printf '\n[image.boot]\nfilename=boot.vfat\n' >>"$content/manifest.raucm"; fi

rm -f "$out"
if [ -n "$keyring" ]; then
  rauc bundle --cert="$cert" --key="$key" --signing-keyring="$keyring" "$content" "$out"
else
  rauc bundle --cert="$cert" --key="$key" "$content" "$out"
fi
