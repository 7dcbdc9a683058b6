#!/bin/bash
# A root slot's ext4 image from a directory (mke2fs -d, no mount): sized to the content plus a
# margin, without a journal (the slot is mounted read-only; RAUC writes whole images to it).
#   slot-image.sh ROOT OUT.ext4
set -euo pipefail
root=$1
image=$2
used_mb=$(du -sm --apparent-size "$root" | cut -f1)
size_mb=$((used_mb + used_mb / 5 + 64))
rm -f "$image"
mke2fs -q -t ext4 -O ^has_journal -L rootfs -m 0 -N $((used_mb * 40 + 16384)) -d "$root" "$image" "${size_mb}M"
