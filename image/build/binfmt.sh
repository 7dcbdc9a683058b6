#!/bin/bash
# Lets this amd64 host run the foreign root's programs (mmdebstrap's package scripts, the addon
# build): binfmt_misc mounted and qemu-user-static registered for the architecture.
#   binfmt.sh arm64
set -euo pipefail
qemu=aarch64
[ "$1" = arm64 ] || { echo "binfmt.sh: unknown architecture $1" >&2; exit 1; }
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc; fi
if [ ! -e "/proc/sys/fs/binfmt_misc/qemu-$qemu" ]; then update-binfmts --enable "qemu-$qemu"; fi
grep -q enabled "/proc/sys/fs/binfmt_misc/qemu-$qemu"
