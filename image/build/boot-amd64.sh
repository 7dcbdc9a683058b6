#!/bin/bash
# The twin's slot image and EFI partition: rootfs.ext4 from the customized root; GRUB for x86_64
# EFI at the removable-media path EFI/BOOT/BOOTX64.EFI (no NVRAM entry needed), our grub.cfg and
# the slot choice it sources (image/rauc/grub.cfg, as slot.cfg), and a grubenv that says slot A
# is good and first (RAUC's GRUB backend keeps it from then on).
#   boot-amd64.sh ROOT PARTS_DIR
set -euo pipefail
root=$1
parts=$2
rm -rf "$parts"
mkdir -p "$parts/efi/EFI/BOOT"
# grub.cfg loads /boot/vmlinuz and /boot/initrd.img of the slot: links to the installed kernel.
kernel=$(cd "$root/boot" && ls vmlinuz-* | sort -V | tail -1)
ln -sfn "$kernel" "$root/boot/vmlinuz"
ln -sfn "initrd.img-${kernel#vmlinuz-}" "$root/boot/initrd.img"
"$PRINTYARD_IMAGE_DIR/build/slot-image.sh" "$root" "$parts/rootfs.ext4"
grub-mkimage -O x86_64-efi -p /EFI/BOOT -o "$parts/efi/EFI/BOOT/BOOTX64.EFI" \
  part_gpt fat ext2 normal linux loadenv test echo regexp configfile search ls cat reboot halt all_video serial terminal eval
cp "$PRINTYARD_IMAGE_DIR/grub/grub.cfg" "$parts/efi/EFI/BOOT/grub.cfg"
cp "$PRINTYARD_IMAGE_DIR/rauc/grub.cfg" "$parts/efi/EFI/BOOT/slot.cfg"
env=$parts/efi/EFI/BOOT/grubenv
grub-editenv "$env" create
grub-editenv "$env" set ORDER="A B" A_OK=1 B_OK=0 A_TRY=0 B_TRY=0
