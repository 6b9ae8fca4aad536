#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install everything vseg needs to build and test: the toolchain, QEMU, busybox,
# libdrm, debootstrap, the image + headers of the newest Debian 6.12 kernel
# (bookworm-backports, installed as packages) and Debian 13's newest 7.3
# (trixie-backports: image, modules and a Debian 13 build root with its
# headers, kept in the cache, not installed; tools/trixie-kernel.sh).
# Idempotent: when everything is present it only runs a few dpkg queries
# and returns.
#
# The backports suite is added by copying the machine's own Debian archive
# entry (the 7.3 build root's entry likewise), so no archive host is ever
# written here.
#
# Also linux-source-7.3 of the cached 7.3's version, the source of the debug
# kernel (tools/debug-kernel/) and of checkpatch.pl, into the cache, unless
# DEBUG_TIER=0.
#
# usage: tools/install-deps.sh [--checkpatch] [--bench] [--upstream-igt]
#   --checkpatch    fetch linux-source-7.3 even with DEBUG_TIER=0
#   --bench         also gnuplot-nox, for the plot of "make bench" (only
#                   make bench asks for it; make check never needs it)
#   --upstream-igt  also what building upstream IGT's library and runner
#                   needs (meson, libkmod, libproc2, libdw, cairo, glib,
#                   json-c, ...; only make check-upstream-igt asks for it)

# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
set -e
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

BASE_PKGS=(build-essential bc bison flex kmod cpio busybox-static xz-utils
	   qemu-system-x86 libdrm-dev pkg-config libelf-dev libssl-dev sparse
	   debootstrap libdrm-tests drm-info)

BPO_SOURCES=/etc/apt/sources.list.d/vseg-backports.sources
STAMP_DIR=${VSEG_STATE_DIR:-/var/lib/vseg}
UPDATED=0
CHECKPATCH=0
BENCH=0
BENCH_PKGS=(gnuplot-nox)
UPSTREAM_IGT=0
UPSTREAM_IGT_PKGS=(meson ninja-build python3 git libkmod-dev libproc2-dev libdw-dev
		   zlib1g-dev liblzma-dev libcairo2-dev libpixman-1-dev libudev-dev
		   libglib2.0-dev libjson-c-dev libunwind-dev libpciaccess-dev)

for arg in "$@"; do
	case $arg in
	--checkpatch) CHECKPATCH=1 ;;
	--bench) BENCH=1 ;;
	--upstream-igt) UPSTREAM_IGT=1 ;;
	*) echo "usage: $0 [--checkpatch] [--bench] [--upstream-igt]" >&2; exit 2 ;;
	esac
done


missing() {
	local p out=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || out+=("$p")
	done
	echo "${out[@]:-}"
}

apt_update() {
	[ "$UPDATED" = 1 ] && return 0
	log "apt-get update"
	$SUDO apt-get update -qq >/dev/null
	UPDATED=1
}

apt_install() {
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
		--no-install-recommends "$@" >/dev/null
}

# Derive a bookworm-backports entry from the machine's own Debian entry.
add_backports() {
	[ -f "$BPO_SOURCES" ] && return 0
	local uri
	uri=$(debian_uri bookworm)
	if [ -z "$uri" ]; then
		log "cannot find the Debian bookworm archive entry to derive backports from"
		exit 1
	fi
	log "adding bookworm-backports from the machine's Debian entry"
	$SUDO tee "$BPO_SOURCES" >/dev/null <<EOT
Types: deb
URIs: $uri
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
	UPDATED=0
}

# Newest kernel ABI name ("6.12.95+deb12-amd64") offered for a series (a regex).
kernel_abi() {
	local series=$1
	apt-cache show linux-image-amd64 2>/dev/null |
		awk '/^Depends:/ { print }' | grep -o "linux-image-${series}[^ ,]*-amd64" |
		sed 's/^linux-image-//' | sort -V | tail -n 1
}

kver_present() {
	local series=$1
	ls -d /lib/modules/"$series"*-amd64/build >/dev/null 2>&1
}

m=$(missing "${BASE_PKGS[@]}")
if [ -n "$m" ]; then
	apt_update
	log "installing $m"
	# shellcheck disable=SC2086
	apt_install $m
fi

if ! kver_present 6.12.; then
	add_backports
	apt_update
	k612=$(kernel_abi '6\.12\.')
	if [ -z "$k612" ]; then
		log "cannot find the 6.12 kernel in the archive (bookworm-backports)"
		exit 1
	fi
	log "installing kernel $k612"
	apt_install -t bookworm-backports "linux-image-$k612" "linux-headers-$k612"
fi

# Linux 7.3: Debian 13's, in the cache with its build root (about a minute
# and 800 MB; tools/trixie-kernel.sh).
if ! "$TOOLS/trixie-kernel.sh" --kver >/dev/null; then
	"$TOOLS/trixie-kernel.sh" --install >/dev/null
fi

if [ "$BENCH" = 1 ]; then
	m=$(missing "${BENCH_PKGS[@]}")
	if [ -n "$m" ]; then
		apt_update
		log "installing $m (make bench)"
		# shellcheck disable=SC2086
		apt_install $m
	fi
fi

if [ "$UPSTREAM_IGT" = 1 ]; then
	m=$(missing "${UPSTREAM_IGT_PKGS[@]}")
	if [ -n "$m" ]; then
		apt_update
		log "installing $m (make check-upstream-igt)"
		# shellcheck disable=SC2086
		apt_install $m
	fi
fi

# The debug kernel's source and checkpatch.pl's: linux-source-7.3 of the
# cached 7.3's version (tools/debug-kernel/build.sh --source says which and
# where), fetched through the 7.3 build root's apt; only its tarball is
# kept, in the cache (about 170 MB).
if [ "${DEBUG_TIER:-1}" != 0 ] || [ "$CHECKPATCH" = 1 ]; then
	read -r _ dtar < <("$TOOLS/debug-kernel/build.sh" --source)
	if [ ! -r "$dtar" ]; then
		"$TOOLS/trixie-kernel.sh" --fetch-source
	fi
fi

$SUDO mkdir -p "$STAMP_DIR" 2>/dev/null || true
exit 0
