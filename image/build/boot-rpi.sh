#!/bin/bash
# The Raspberry Pi 4/5 slot image and boot partitions (image/rauc/README.md, "Raspberry Pi"):
# - boot (partition 1): autoboot.txt only; the firmware reads it first. [all] boots partition 2
#   (slot A) for good, [tryboot] the partition RAUC's tryboot backend names for one trial boot;
# - boot-a, boot-b (partitions 2, 3): the same image, boot-slot.vfat, which an update bundle
#   carries for RAUC's boot.0/boot.1 child slots: the Pi firmware (raspi-firmware), the device
#   trees of Debian's kernel, that kernel and initramfs, config.txt, whose boot_partition filter
#   picks cmdline-a.txt or cmdline-b.txt (root=PARTLABEL=rootfs-x rauc.slot=X) by the partition
#   the firmware booted. cmdline.txt (slot A's) is the fallback of a firmware without that filter.
#   boot-rpi.sh ROOT PARTS_DIR
set -euo pipefail
root=$1
parts=$2
cfg=$PRINTYARD_IMAGE_DIR/rpi
rm -rf "$parts"
mkdir -p "$parts/boot" "$parts/boot-slot"
kernel=$(cd "$root/boot" && ls vmlinuz-* | sort -V | tail -1)
version=${kernel#vmlinuz-}
install -m 0644 "$cfg/autoboot.txt" "$parts/boot/autoboot.txt"
dir=$parts/boot-slot
cp -r "$root"/usr/lib/raspi-firmware/. "$dir/"
find "$root/usr/lib/linux-image-$version/broadcom" -name 'bcm271[12]-rpi-*.dtb' -exec cp {} "$dir/" \;
cp "$root/boot/$kernel" "$dir/vmlinuz"
cp "$root/boot/initrd.img-$version" "$dir/initrd.img"
install -m 0644 "$cfg/config.txt" "$dir/config.txt"
for slot in a b; do
  sed "s/@SLOT@/${slot^^}/; s/@PARTLABEL@/rootfs-$slot/" "$cfg/cmdline.txt" > "$dir/cmdline-$slot.txt"
done
cp "$dir/cmdline-a.txt" "$dir/cmdline.txt"
vfat() { # NAME LABEL SIZE_MB: NAME.vfat with the files of the folder NAME
  mkfs.vfat -n "$2" -C "$parts/$1.vfat" $(($3 * 1024)) >/dev/null
  MTOOLS_SKIP_CHECK=1 mcopy -s -i "$parts/$1.vfat" "$parts/$1"/* ::
}
vfat boot BOOT 16
vfat boot-slot BOOT-SLOT 256
"$PRINTYARD_IMAGE_DIR/build/slot-image.sh" "$root" "$parts/rootfs.ext4"
