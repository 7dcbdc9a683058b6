#!/usr/bin/env python3
"""GRUB for BIOS firmware on the twin's GPT disk, without grub-install (which wants a mounted disk).

GRUB's own layout (grub-core/boot/i386/pc/boot.S and diskboot.S): the MBR's boot code (boot.img)
loads one sector at the LBA stored at offset 0x5c; that sector is diskboot.img, the start of
core.img, whose last 12 bytes are a block list (LBA of the rest, sector count, load segment).
core.img sits in the BIOS boot partition (GPT type 21686148-…), written there by genimage.

  bios-boot.py core CORE_IN CORE_OUT LBA    patch core.img's block list for the partition at LBA
  bios-boot.py mbr BOOT_IMG DISK LBA        put boot.img's code into the disk's MBR
"""
import struct
import sys

SECTOR = 512


def core(src: str, dst: str, lba: int) -> None:
    data = bytearray(open(src, 'rb').read())
    sectors = -(-len(data) // SECTOR)
    data += bytes(sectors * SECTOR - len(data))
    # The block list ends diskboot.img: start LBA (8 bytes), sector count (2), segment (2, kept).
    struct.pack_into('<QH', data, SECTOR - 12, lba + 1, sectors - 1)
    open(dst, 'wb').write(data)


def mbr(boot_img: str, disk: str, lba: int) -> None:
    code = bytearray(open(boot_img, 'rb').read())
    struct.pack_into('<Q', code, 0x5C, lba)
    with open(disk, 'r+b') as out:
        # Boot code only: the disk signature and the protective partition entry stay as written.
        out.write(code[:440])


if __name__ == '__main__':
    what, a, b, lba = sys.argv[1:5]
    {'core': core, 'mbr': mbr}[what](a, b, int(lba))
