#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Debian 13's (trixie-backports) Linux 7.3 for this Debian 12 host, kept in
# the cache outside the clone and outside the host's package database:
# nothing is installed into /boot or /lib/modules.
#
# Debian's 7.3 headers are made for gcc 14 and kbuild's tools (objtool,
# modpost, resolve_btfids) need glibc 2.38: neither is in Debian 12, so
# modules are built in a Debian 13 build root (debootstrap). The image and
# its modules are unpacked (dpkg -x) for tools/vm-run.sh, which boots them
# as it boots the debug kernel.
#
# CACHE/kernel-7.3/VERSION/ (VERSION: the Debian version of the headers,
#     e.g. 7.3.4-1~bpo13+1; a newer one is a new directory):
#   root/   debootstrap --variant=minbase trixie, then make, gcc-14,
#           binutils, sparse and linux-headers-KVER (--no-install-recommends);
#           about 750 MB
#   image/  linux-image-KVER and the packages it is split into (the kernel,
#           its modules, System.map and config) unpacked; the module tree
#           depmod'ed: image/usr/lib/modules/KVER/{vmlinuz,kernel,modules.dep}
#   kver    KVER (uname -r, e.g. 7.3.4+deb13-amd64)
# CACHE/linux-source/VERSION/linux-source-7.3.tar.xz (--fetch-source): the
#   source of the same version, for the debug kernel and checkpatch.pl.
#
# The build root's apt entry (trixie and trixie-backports, main) copies
# the URI of the machine's own Debian 12 entry; the Debian 12 archive
# keyring holds the trixie keys.
#
# usage: tools/trixie-kernel.sh [--install | --kver | --image KVER | --root KVER |
#                                --source | --fetch-source]
#        tools/trixie-kernel.sh --make KVER DIR [MAKE_ARGS...]
#   --install       make the newest 7.3 of the archive if no 7.3 is in the
#                   cache (as root: debootstrap, chroot); print its KVER
#   --kver          KVER of the newest complete 7.3 in the cache (exit 1: none)
#   --image KVER    "VMLINUZ MODULE_DIR" of KVER (exit 1: not a cached kernel)
#   --root KVER     its build root
#   --source        "VERSION TARBALL" of the matching linux-source-7.3 (the
#                   tarball may not exist yet; exit 1 when no 7.3 is cached)
#   --fetch-source  download that tarball if it is missing
#   --make          run "make MAKE_ARGS" in KVER's build root, DIR (a host
#                   directory, the module's tree) bound at the same path,
#                   /proc mounted, as the calling user; mounts are private
#                   to the command (unshare)
# Environment: VSEG_CACHE (see tools/lib.sh), SERIES (7.3).

USAGE_LINES=31,46
# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
set -e

SERIES=${SERIES:-7.3}
SUITE=trixie
ROOT_PKGS=(make gcc-14 binutils sparse)
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

CACHE=$(vseg_cache)
BASE=$CACHE/kernel-$SERIES

# The complete directories, oldest first.
complete_dirs() {
	local d
	for d in "$BASE"/*/.complete; do
		[ -e "$d" ] && dirname "$d"
	done | sort -V
}

# dir_of KVER: the newest complete directory holding KVER
dir_of() {
	local d out=
	while read -r d; do
		[ "$(cat "$d/kver" 2>/dev/null)" = "$1" ] && out=$d
	done < <(complete_dirs)
	[ -n "$out" ] && echo "$out"
}

newest() {
	complete_dirs | tail -n 1
}

# in_root ROOT CMD...: CMD as root in ROOT, with /proc, in a private mount
# namespace (nothing stays mounted when it ends)
in_root() {
	local r=$1
	shift
	$SUDO unshare -m -- sh -c 'r=$1; shift
		mount -t proc proc "$r/proc" || exit 125
		exec chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' \
		sh "$r" "$@"
}

# fetch_debs ROOT DEST PKG...: apt-get download in the build root, the
# files moved to DEST
fetch_debs() {
	local r=$1 dest=$2
	shift 2
	in_root "$r" sh -c 'rm -rf /tmp/dl && mkdir -p /tmp/dl && cd /tmp/dl &&
		apt-get download -q "$@" 2>&1 | grep -v unsandboxed >&2;
		ls /tmp/dl/*.deb >/dev/null' sh "$@" || return 1
	mkdir -p "$dest"
	$SUDO mv "$r"/tmp/dl/*.deb "$dest/"
	$SUDO rm -rf "$r/tmp/dl"
}

install() {
	local uri tmp r kver pkgs ver p vml mods t0=$SECONDS

	mkdir -p "$BASE"
	exec 7>"$BASE/.lock"
	if ! flock -n 7; then
		log "waiting for another install in $BASE"
		flock 7
	fi
	if [ -n "$(newest)" ]; then
		cat "$(newest)/kver"
		return 0
	fi
	command -v debootstrap >/dev/null ||
		die "debootstrap missing (tools/install-deps.sh installs it)"
	uri=$(debian_uri bookworm)
	[ -n "$uri" ] || uri=$(debian_uri "$SUITE")
	[ -n "$uri" ] || die "no Debian archive entry in the apt sources to derive $SUITE from"

	rm -rf "$BASE"/.tmp.*
	tmp=$BASE/.tmp.$$
	trap '$SUDO rm -rf "$tmp"' EXIT
	r=$tmp/root
	mkdir -p "$tmp"
	log "debootstrap --variant=minbase $SUITE (a Debian 13 build root for Linux $SERIES)"
	if ! $SUDO debootstrap --variant=minbase \
		--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
		"$SUITE" "$r" "$uri" >"$tmp/debootstrap.log" 2>&1; then
		tail -n 20 "$tmp/debootstrap.log" >&2
		die "debootstrap failed (log above)"
	fi
	$SUDO rm -f "$r/etc/apt/sources.list"
	$SUDO tee "$r/etc/apt/sources.list.d/debian.sources" >/dev/null <<EOT
Types: deb
URIs: $uri
Suites: $SUITE $SUITE-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
	in_root "$r" apt-get update -qq >/dev/null
	kver=$(in_root "$r" apt-cache pkgnames "linux-headers-$SERIES." |
		sed -n "s/^linux-headers-\(${SERIES//./\\.}\.[^-]*-amd64\)$/\1/p" |
		sort -V | tail -n 1)
	[ -n "$kver" ] || die "no linux-headers-$SERIES.*-amd64 in $SUITE-backports"
	ver=$(in_root "$r" apt-cache show --no-all-versions "linux-headers-$kver" |
		sed -n 's/^Version: //p' | head -n 1)
	[ -n "$ver" ] || die "no version for linux-headers-$kver"
	log "installing ${ROOT_PKGS[*]} linux-headers-$kver ($ver) in the build root"
	if ! in_root "$r" apt-get install -y -qq --no-install-recommends \
		-t "$SUITE-backports" "${ROOT_PKGS[@]}" "linux-headers-$kver" \
		>"$tmp/apt.log" 2>&1; then
		tail -n 20 "$tmp/apt.log" >&2
		die "apt-get install in the build root failed (log above)"
	fi
	in_root "$r" apt-get clean

	# The image: linux-image-KVER and the packages of KVER it depends on
	# (Debian 13 splits it into linux-binary, linux-modules, linux-base).
	pkgs=("linux-image-$kver")
	for p in $(in_root "$r" apt-cache depends "linux-image-$kver" |
		sed -n 's/^ *Depends: \(linux-[a-z]*-\)/\1/p'); do
		case $p in *"-$kver") pkgs+=("$p") ;; esac
	done
	log "unpacking ${pkgs[*]}"
	fetch_debs "$r" "$tmp/debs" "${pkgs[@]}" || die "cannot download ${pkgs[*]}"
	for p in "$tmp"/debs/*.deb; do
		dpkg-deb -x "$p" "$tmp/image"
	done
	rm -rf "$tmp/debs"
	mods=
	for p in usr/lib lib; do
		[ -d "$tmp/image/$p/modules/$kver/kernel" ] && { mods=$p/modules/$kver; break; }
	done
	[ -n "$mods" ] || die "no module tree for $kver in ${pkgs[*]}"
	depmod -b "$tmp/image/${mods%/lib/modules/*}" "$kver" ||
		die "depmod of $kver failed"
	vml=
	for p in "$mods/vmlinuz" "boot/vmlinuz-$kver"; do
		[ -f "$tmp/image/$p" ] && { vml=$p; break; }
	done
	[ -n "$vml" ] || die "no vmlinuz for $kver in ${pkgs[*]}"

	echo "$kver" >"$tmp/kver"
	echo "$ver" >"$tmp/version"
	printf '%s %s\n' "$vml" "$mods" >"$tmp/image.paths"
	: >"$tmp/.complete"
	$SUDO rm -rf "${BASE:?}/$ver"
	mv -T "$tmp" "$BASE/$ver"
	trap - EXIT
	log "Linux $kver ($ver) in $BASE/$ver ($((SECONDS - t0)) s)"
	echo "$kver"
}

# "VERSION TARBALL" of the newest cached 7.3's source
source_choice() {
	local d ver
	d=$(newest)
	[ -n "$d" ] || return 1
	ver=$(cat "$d/version")
	echo "$ver $CACHE/linux-source/$ver/linux-source-$SERIES.tar.xz"
}

fetch_source() {
	local ver tar d tmp
	read -r ver tar < <(source_choice) || die "no Linux $SERIES in $BASE (--install first)"
	[ -r "$tar" ] && return 0
	d=$(newest)
	mkdir -p "$(dirname "$tar")"
	tmp=$(mktemp -d "$(dirname "$tar")/.fetch.XXXXXX")
	log "fetching linux-source-$SERIES $ver"
	if ! fetch_debs "$d/root" "$tmp" "linux-source-$SERIES=$ver" ||
		! dpkg-deb --fsys-tarfile "$tmp"/linux-source-"$SERIES"_*.deb |
		tar -xO "./usr/src/linux-source-$SERIES.tar.xz" >"$tmp/src.tar.xz"; then
		rm -rf "$tmp"
		die "cannot fetch linux-source-$SERIES $ver"
	fi
	mv "$tmp/src.tar.xz" "$tar"
	rm -rf "$tmp"
}

# make_in KVER DIR MAKE_ARGS...
make_in() {
	local kver=$1 dir d
	dir=$(realpath -e "$2") || die "no directory $2"
	shift 2
	d=$(dir_of "$kver") || die "Linux $kver is not in $BASE"
	$SUDO unshare -m -- sh -c 'r=$1 dir=$2 user=$3; shift 3
		mount -t proc proc "$r/proc" || exit 125
		mkdir -p "$r$dir" && mount --bind "$dir" "$r$dir" || exit 125
		exec chroot --userspec="$user" "$r" env -i \
			PATH=/usr/bin:/bin HOME=/tmp LC_ALL=C.UTF-8 make "$@"' \
		sh "$d/root" "$dir" "$(id -u):$(id -g)" "$@"
}

case ${1:-} in
--install) install ;;
--kver)
	d=$(newest)
	[ -n "$d" ] || exit 1
	cat "$d/kver"
	;;
--image)
	[ $# -eq 2 ] || usage
	d=$(dir_of "$2") || exit 1
	read -r vml mods <"$d/image.paths"
	echo "$d/image/$vml $d/image/$mods"
	;;
--root)
	[ $# -eq 2 ] || usage
	d=$(dir_of "$2") || exit 1
	echo "$d/root"
	;;
--source) source_choice ;;
--fetch-source) fetch_source ;;
--make)
	[ $# -ge 3 ] || usage
	shift
	make_in "$@"
	;;
*) usage ;;
esac
