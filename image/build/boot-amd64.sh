#!/bin/bash
# The twin's slot image and boot files: rootfs.ext4 from the customized root; GRUB for x86_64 EFI
# (the removable-media path EFI/BOOT/BOOTX64.EFI, so no NVRAM entry is needed) and GRUB for BIOS
# (core.img for the BIOS boot partition; build.sh puts boot.img in the MBR), both reading the same
# grub.cfg and grubenv on the EFI partition, grubenv saying slot A is good and first. Why both:
# image/README.md (OVMF does not run under this machine's nested KVM; SeaBIOS does).
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
  part_gpt fat ext2 normal linux loadenv test echo regexp configfile search ls cat reboot halt all_video
# BIOS: everything GRUB needs is inside core.img; the EFI partition is partition 2 of disk 0.
grub-mkimage -O i386-pc -p '(hd0,gpt2)/EFI/BOOT' -o "$parts/core.img" \
  biosdisk part_gpt fat ext2 normal linux loadenv test echo regexp configfile search ls cat reboot halt
"$PRINTYARD_IMAGE_DIR/build/bios-boot.py" core "$parts/core.img" "$parts/bios-core.img" 2048
cp "$PRINTYARD_IMAGE_DIR/grub/grub.cfg" "$parts/efi/EFI/BOOT/grub.cfg"
env=$parts/efi/EFI/BOOT/grubenv
grub-editenv "$env" create
grub-editenv "$env" set ORDER="A B" A_OK=1 B_OK=0 A_TRY=0 B_TRY=0
