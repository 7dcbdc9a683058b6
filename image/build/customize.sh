#!/bin/bash
# Our layer on the Debian root: the project in /opt/printyard, the units of image/systemd and the
# overlays of image/rootfs (common, then the board's), users made now (the root is read-only on
# the box), services enabled, nothing that must differ between boxes (SSH host keys, machine id).
#   customize.sh ROOT APP_STAGE
set -euo pipefail
root=$1
app=$2
dir=$PRINTYARD_IMAGE_DIR
board=$PRINTYARD_BOARD
in_root() { chroot "$root" "$@"; }

rm -rf "$root/opt/printyard"
mkdir -p "$root/opt"
cp -a "$app" "$root/opt/printyard"
chown -R 0:0 "$root/opt/printyard"
if [ "$PRINTYARD_ARCH" != amd64 ]; then "$dir/build/native-addons.sh" "$root"; fi

units=$root/usr/lib/systemd/system
install -m 0644 "$dir"/systemd/*.service "$dir"/systemd/*.target "$units/"
install -D -m 0644 "$dir/systemd/printyard.sysusers.conf" "$root/usr/lib/sysusers.d/printyard.conf"
for layer in common "$board"; do
  cp -r --no-preserve=ownership "$dir/rootfs/$layer/." "$root/"
done
in_root systemd-sysusers

# RAUC: the system config of this board and the keyring that verifies bundles.
if [ -f "$dir/rauc/system-$board.conf" ]; then
  install -D -m 0644 "$dir/rauc/system-$board.conf" "$root/etc/rauc/system.conf"
else
  echo "customize.sh: no image/rauc/system-$board.conf yet; the image has no RAUC system config" >&2
fi
if [ -n "${PRINTYARD_KEYRING:-}" ]; then install -D -m 0644 "$PRINTYARD_KEYRING" "$root/etc/rauc/keyring.pem"; fi
for tool in health-gate health-gate.mjs tryboot-backend; do
  if [ -f "$dir/rauc/$tool" ]; then install -D -m 0755 "$dir/rauc/$tool" "$root/usr/lib/printyard/rauc/$tool"; fi
done

# Mount points and the configuration folders systemd cannot create on a read-only root.
mkdir -p "$root/usr/lib/printyard/data-skeleton/cache" "$root/var/lib/printyard" "$root/var/cache/printyard" "$root/etc/printyard/slicer" "$root/boot/efi" "$root/boot/autoboot"
echo printyard > "$root/etc/hostname"
printf '{"board":"%s","version":"%s"}\n' "$board" "$PRINTYARD_VERSION" > "$root/usr/lib/printyard/image.json"

in_root systemctl enable printyard.target printyard-slicer.service printyard-dashboard.service \
  printyard-node-red.service printyard-first-boot.service systemd-networkd.service systemd-resolved.service \
  systemd-timesyncd.service ssh.service printyard-selftest.service
for unit in "$dir"/systemd/printyard-health-gate.service; do
  if [ -f "$unit" ]; then in_root systemctl enable "$(basename "$unit")"; fi
done

# What must be each box's own: made on the box (host key on the data partition, machine id in RAM).
rm -f "$root"/etc/ssh/ssh_host_*
: > "$root/etc/machine-id"
rm -f "$root/var/lib/dbus/machine-id"
ln -s /etc/machine-id "$root/var/lib/dbus/machine-id"
# raspi-firmware's hooks copy the firmware, kernel and initramfs to /boot/firmware, Debian's Pi
# boot partition; here boot-rpi.sh makes the boot partitions, so in the slot they would be copies.
if [ -d "$root/boot/firmware" ]; then find "$root/boot/firmware" -mindepth 1 -delete; fi
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/var/log/*
