#!/bin/bash
# The Raspberry Pi 4/5 slot image and boot partitions (image/rauc/README.md, "Raspberry Pi"):
# - boot (partition 1): autoboot.txt only; the firmware reads it first. [all] boots partition 2
#   (slot A) for good, [tryboot] the partition RAUC's tryboot backend names for one trial boot;
# - boot-a, boot-b (partitions 2, 3): one per slot, with the Pi firmware (raspi-firmware), the
#   device trees of Debian's kernel, that kernel and initramfs, config.txt, and a cmdline.txt whose
#   root is that slot's rootfs. boot-b starts as a copy for slot B, used once B holds a root.
#   boot-rpi.sh ROOT PARTS_DIR
set -euo pipefail
root=$1
parts=$2
cfg=$PRINTYARD_IMAGE_DIR/rpi
rm -rf "$parts"
mkdir -p "$parts/boot"
kernel=$(cd "$root/boot" && ls vmlinuz-* | sort -V | tail -1)
version=${kernel#vmlinuz-}
install -m 0644 "$cfg/autoboot.txt" "$parts/boot/autoboot.txt"
for slot in a b; do
  dir=$parts/boot-$slot
  mkdir -p "$dir"
  cp "$root"/usr/lib/raspi-firmware/* "$dir/"
  find "$root/usr/lib/linux-image-$version/broadcom" -name 'bcm271[12]-rpi-*.dtb' -exec cp {} "$dir/" \;
  cp "$root/boot/$kernel" "$dir/vmlinuz"
  cp "$root/boot/initrd.img-$version" "$dir/initrd.img"
  install -m 0644 "$cfg/config.txt" "$dir/config.txt"
  sed "s/@SLOT@/${slot^^}/; s/@PARTLABEL@/rootfs-$slot/" "$cfg/cmdline.txt" > "$dir/cmdline.txt"
done
vfat() { # NAME LABEL SIZE_MB: NAME.vfat with the files of the folder NAME
  mkfs.vfat -n "$2" -C "$parts/$1.vfat" $(($3 * 1024)) >/dev/null
  MTOOLS_SKIP_CHECK=1 mcopy -s -i "$parts/$1.vfat" "$parts/$1"/* ::
}
vfat boot BOOT 16
vfat boot-a BOOT-A 256
vfat boot-b BOOT-B 256
"$PRINTYARD_IMAGE_DIR/build/slot-image.sh" "$root" "$parts/rootfs.ext4"
