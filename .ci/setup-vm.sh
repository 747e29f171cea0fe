#!/usr/bin/env bash
# The runner-like VM of tests/vm/ (../shared/LAB-runner-vm.md): a Debian bookworm guest with
# systemd, cgroup v2 and a `runner` user with passwordless sudo, booted under QEMU's TCG with
# 4 vCPUs as 2 cores × 2 SMT threads — the shape of GitHub's hosted Linux runners, which this
# machine (cgroup v1, root, no systemd, no SMT) is not.
#   - Debian: qemu-system-x86, qemu-utils (qemu-img), mmdebstrap, e2fsprogs;
#   - the rootfs from Debian's packages only (mmdebstrap), kept as a tarball in
#     $cache/runner-vm-rootfs-<suite>-<hash of the packages> ($DUETKIT_TOOLS_CACHE, default
#     ~/.cache/duetkit-tools), then configured and made into a raw ext4 image with its kernel
#     and initrd beside it in $cache/runner-vm-<suite>-<hash of the whole recipe>, linked from
#     .tools/vm. The initrd is .ci/vm-init.c (built here, static) and the modules it loads, not
#     Debian's initramfs-tools: its shell, udev and fsck took 15–70 s of each boot under TCG.
# The image is never booted itself: each boot writes into a qcow2 overlay of its own
# (tests/vm/boot.ts), so boots share no state. In the guest, a oneshot unit runs /host/lab.sh
# from the 9p share (tag `hostshare`) with its output on the serial console, then powers off.
# Idempotent: a second run only checks and links. Cold ~2 min (mmdebstrap), warm well under 1 s.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib.sh
source .ci/lib.sh # setup_name, started, cache, say, sudo_ (this step needs root)
mkdir -p "$cache" .tools

debs=(qemu-system-x86 qemu-utils mmdebstrap e2fsprogs)
missing=()
for deb in "${debs[@]}"; do
  dpkg-query -W -f '${Status}' "$deb" 2>/dev/null | grep -q 'install ok installed' || missing+=("$deb")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  sudo_ apt-get update -qq
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
for tool in qemu-system-x86_64 qemu-img mmdebstrap mkfs.ext4 cc; do
  command -v "$tool" >/dev/null || {
    echo "setup-vm: $tool is not on PATH after installing ${debs[*]}; the VM tests (tests/vm/) need it" >&2
    exit 1
  }
done

SUITE=bookworm
PACKAGES=systemd-sysv,sudo,linux-image-amd64,initramfs-tools,udev,iproute2,procps,util-linux,kmod,ca-certificates
DISK_SIZE=3G

# The guest's own configuration, written into the rootfs by configure() below. The share is
# mounted by the lab's own script, not at boot: a 9p mount in fstab may run before the virtio
# transport's module is loaded, and `nofail` would then leave /host empty without a word.
LAB_SCRIPT='#!/bin/sh
modprobe 9pnet_virtio 2>/dev/null
mountpoint -q /host || mount /host || { echo "lab: the 9p share (tag hostshare) could not be mounted"; exit 1; }
[ -x /host/lab.sh ] || { echo "lab: /host/lab.sh is missing"; exit 1; }
exec /host/lab.sh'
LAB_UNIT='[Unit]
Description=duetkit: run /host/lab.sh from the 9p share, then power off
# Ordered after multi-user.target without being pulled into it (which would order it before).
DefaultDependencies=no
After=multi-user.target
Conflicts=shutdown.target
Before=shutdown.target
# At once: the results are in the share already (9p writes through), and the disk is thrown away.
SuccessAction=poweroff-immediate
FailureAction=poweroff-immediate

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/duetkit-lab
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target'
FSTAB='/dev/vda / ext4 rw 0 1
hostshare /host 9p trans=virtio,version=9p2000.L,msize=512000,noauto 0 0'

# configure ROOTFS: the runner user, the share, the lab unit; what makes boots short.
configure() {
  local root=$1
  chroot "$root" useradd -m -s /bin/bash runner
  echo 'runner ALL=(ALL) NOPASSWD:ALL' >"$root/etc/sudoers.d/runner"
  chmod 440 "$root/etc/sudoers.d/runner"
  echo "$FSTAB" >"$root/etc/fstab"
  mkdir -p "$root/host"
  echo runner-vm >"$root/etc/hostname"
  # The host name resolves, as on GitHub's runners: sudo looks it up at every call, and without
  # it waits for a failed DNS lookup (each cgroup write of the v2 backend is a sudo).
  printf '127.0.0.1 localhost\n127.0.1.1 runner-vm\n' >"$root/etc/hosts"
  echo "$LAB_SCRIPT" >"$root/usr/local/sbin/duetkit-lab"
  chmod 755 "$root/usr/local/sbin/duetkit-lab"
  echo "$LAB_UNIT" >"$root/etc/systemd/system/duetkit-lab.service"
  ln -sfn /etc/systemd/system/duetkit-lab.service \
    "$root/etc/systemd/system/multi-user.target.wants/duetkit-lab.service"
  ln -sfn /lib/systemd/system/multi-user.target "$root/etc/systemd/system/default.target"
  # The console is the lab's output: no login prompt on it, nor on the (unseen) VGA one.
  ln -sfn /dev/null "$root/etc/systemd/system/serial-getty@ttyS0.service"
  ln -sfn /dev/null "$root/etc/systemd/system/getty@tty1.service"
  ln -sfn /dev/null "$root/etc/systemd/system/getty-static.service"
  # Timers and jobs that would only compete with the lab for the emulated CPUs; and the first
  # boot's prompts, which nobody would answer.
  for unit in systemd-firstboot.service apt-daily.timer apt-daily-upgrade.timer \
    dpkg-db-backup.timer e2scrub_all.timer fstrim.timer man-db.timer e2scrub_reap.service; do
    ln -sfn /dev/null "$root/etc/systemd/system/$unit"
  done
}

# The modules between the kernel and the root disk, in load order (each after those it needs),
# and those of the 9p share: loaded by the guest's modprobe, they took 6–10 s of the boot.
INIT_MODULES='virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci virtio_blk crc16 mbcache jbd2 crc32c_generic ext4 9pnet 9pnet_virtio netfs fscache 9p'

# make_initrd ROOTFS KERNEL_VERSION INIT OUT: .ci/vm-init.c (built static, as INIT) as /init and
# INIT_MODULES from the rootfs, as a newc cpio written by the rootfs's own cpio.
make_initrd() {
  local root=$1 kver=$2 init=$3 out=$4 dir=$1/tmp/duetkit-initrd module file
  rm -rf "$dir" && mkdir -p "$dir/lib/modules" "$dir/dev" "$dir/root"
  install -m 755 "$init" "$dir/init"
  for module in $INIT_MODULES; do
    file=$(find "$root/usr/lib/modules/$kver/kernel" -name "$module.ko" | head -n 1)
    [ -n "$file" ] || {
      echo "setup-vm: the kernel $kver has no module $module" >&2
      return 1
    }
    cp "$file" "$dir/lib/modules/"
    echo "$module.ko" >>"$dir/modules"
  done
  chroot "$root" sh -c 'cd /tmp/duetkit-initrd && find . | cpio -o -H newc --quiet' >"$out"
  rm -rf "$dir"
}

# Two levels, so that a change of the configuration costs seconds, not a new mmdebstrap: the
# packages as a tarball (keyed by suite and packages), the configured image (keyed by both).
rootfs_key=$(echo "$SUITE $PACKAGES" | sha256sum | cut -c1-12)
rootfs=$cache/runner-vm-rootfs-$SUITE-$rootfs_key
recipe=$({
  echo "$rootfs_key $DISK_SIZE"
  echo "$LAB_SCRIPT"
  echo "$LAB_UNIT"
  echo "$FSTAB"
  echo "$INIT_MODULES"
  declare -f configure make_initrd
  cat .ci/vm-init.c
} | sha256sum | cut -c1-12)
vm=$cache/runner-vm-$SUITE-$recipe

if [ ! -f "$rootfs/rootfs.tar" ]; then
  say "building the $SUITE rootfs (mmdebstrap from Debian's packages, ~2.5 min)"
  rm -rf "$rootfs.tmp" && mkdir -p "$rootfs.tmp"
  sudo_ mmdebstrap --quiet --variant=minbase --include="$PACKAGES" "$SUITE" "$rootfs.tmp/rootfs.tar"
  sudo_ chown "$(id -u):$(id -g)" "$rootfs.tmp/rootfs.tar"
  rm -rf "$rootfs" && mv "$rootfs.tmp" "$rootfs"
fi

if [ ! -f "$vm/disk.img" ] || [ ! -f "$vm/vmlinuz" ] || [ ! -f "$vm/initrd.img" ]; then
  say 'configuring the guest'
  work=$(mktemp -d "$cache/.runner-vm-build.XXXXXX")
  trap 'sudo_ rm -rf --one-file-system "$work"' EXIT
  mkdir "$work/rootfs" "$work/out"
  sudo_ tar -xf "$rootfs/rootfs.tar" -C "$work/rootfs" --numeric-owner
  sudo_ bash -euo pipefail -c "$(declare -f configure); LAB_SCRIPT=\$1 LAB_UNIT=\$2 FSTAB=\$3 configure \$4" \
    configure "$LAB_SCRIPT" "$LAB_UNIT" "$FSTAB" "$work/rootfs"
  kernel=$(cd "$work/rootfs/boot" && ls vmlinuz-* | sort -V | tail -n 1)
  sudo_ cp "$work/rootfs/boot/$kernel" "$work/out/vmlinuz"
  say 'the initramfs (.ci/vm-init.c and the modules to reach the disk)'
  cc -O2 -static -o "$work/init" .ci/vm-init.c
  sudo_ bash -euo pipefail -c "INIT_MODULES=\$1; $(declare -f make_initrd); make_initrd \"\${@:2}\"" \
    make_initrd "$INIT_MODULES" "$work/rootfs" "${kernel#vmlinuz-}" "$work/init" "$work/out/initrd.img"
  say "making the ext4 image ($DISK_SIZE, sparse)"
  sudo_ mkfs.ext4 -q -F -L runner-vm -d "$work/rootfs" "$work/out/disk.img" "$DISK_SIZE" >/dev/null
  sudo_ chown -R "$(id -u):$(id -g)" "$work/out"
  # Read-only: boots write into overlays, never into the image itself.
  chmod 444 "$work/out/disk.img" "$work/out/vmlinuz" "$work/out/initrd.img"
  rm -rf "$vm" && mv "$work/out" "$vm"
  sudo_ rm -rf --one-file-system "$work"
  trap - EXIT
fi

ln -sfn "$vm" .tools/vm
say "the runner-like VM ($SUITE, recipe $recipe) is in $vm"
