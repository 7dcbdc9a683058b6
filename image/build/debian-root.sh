#!/bin/bash
# A Debian trixie root as a tarball, made by mmdebstrap with what keeps a foreign (arm64) root
# quick to install under qemu-user-static, where every dpkg run and package script is emulated:
# - dpkg without fsync: mmdebstrap's eatmydata hook (eatmydata on the host) and force-unsafe-io
#   (a half-written root is thrown away anyway);
# - no recommends, documentation, manual pages or translations (fewer files, no man-db trigger);
# - the initramfs made once at the end: update-initramfs is diverted to a no-op while packages are
#   installed (the kernel's postinst and every trigger would each make one, minutes apiece under
#   emulation), then put back and run once for the installed kernel (INITRAMFS=yes).
#   debian-root.sh ARCH PACKAGES(comma-separated) OUT.tar
set -euo pipefail
arch=$1
packages=$2
out=$3
# mmdebstrap picks its output format from the name: the partial file must end in .tar too.
part=${out%.tar}.part.tar
hooks=/usr/share/mmdebstrap/hooks/eatmydata
command -v eatmydata >/dev/null || { echo "debian-root.sh: needs eatmydata on the host (apt-get install eatmydata)" >&2; exit 1; }
noop='#!/bin/sh\necho "update-initramfs: deferred to the end of the image build" >&2\n'
initramfs=()
if [ "${INITRAMFS:-no}" = yes ]; then
  initramfs=(
    --essential-hook='chroot "$1" dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs'
    --essential-hook="printf '$noop' > \"\$1/usr/sbin/update-initramfs\" && chmod 0755 \"\$1/usr/sbin/update-initramfs\""
    --customize-hook='rm "$1/usr/sbin/update-initramfs"'
    --customize-hook='chroot "$1" dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs'
    --customize-hook='for k in "$1"/lib/modules/*; do chroot "$1" update-initramfs -c -k "${k##*/}"; done'
  )
fi
mmdebstrap --mode=root --variant=apt --architectures="$arch" \
  --components=main,non-free-firmware --include="$packages" \
  --hook-dir="$hooks" --dpkgopt=force-unsafe-io \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  "${initramfs[@]}" \
  trixie "$part" http://deb.debian.org/debian >&2
mv "$part" "$out"
