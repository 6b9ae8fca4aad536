#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build (or find in the cache) the vseg debug kernel: Debian's
# linux-source-7.3 configured with "make tinyconfig" plus the fragment
# tools/debug-kernel/debug.config (KASAN, lockdep, kmemleak, debug objects,
# fault injection, KUnit, DRM/TTM/sched/exec/gpuvm as modules, virtio-9p
# built in), with the host's compiler.
#
# The source is the linux-source-7.3 of the same version as the stock 7.3
# kernel vseg is tested on (tools/trixie-kernel.sh), so that the two kernels
# differ only by their configuration (and compiler):
# CACHE/linux-source/VERSION/linux-source-7.3.tar.xz (tools/install-deps.sh
# fetches it there).
#
# The kernel lives outside the clone, in CACHE/debug-kernel/KEY/ where KEY
# hashes the fragment, the source version, this script and the compiler
# (vseg.ko must be built with the compiler that built the kernel). A build
# runs in CACHE/debug-kernel/.KEY.tmp.PID, renamed to KEY only when
# complete, under a lock: concurrent callers wait for it, and an interrupted
# build leaves no cache behind. The three most recently used are kept.
#
# CACHE/debug-kernel/KEY/ holds:
#   bzImage   the kernel             kver      its release (uname -r)
#   src/      the built tree (KDIR for out-of-tree modules)
#   modroot/  INSTALL_MOD_PATH: modroot/lib/modules/KVER/{kernel,build -> src}
#   config    its .config            build.log, key-info
#
# usage: tools/debug-kernel/build.sh [--dir | --key | --source]
#   (none)    build if needed; print the directory on stdout
#   --dir     print the directory if the kernel is built, else exit 1
#   --key     print the cache key
#   --source  print "VERSION TARBALL", the source it builds (may not exist yet)
# Environment: VSEG_CACHE (default /var/cache/vseg, or ~/.cache/vseg when
#   that is not writable), JOBS (default nproc), LINUX_SOURCE (a tarball to
#   build instead; its size and mtime stand for its version).

PROG=debug-kernel
# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
SELF=$HERE/$(basename "${BASH_SOURCE[0]}")
TOOLS=$(dirname "$HERE")
FRAGMENT=$HERE/debug.config
SRCPKG=linux-source-7.3
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
KEEP=3


MODE=build
case ${1:-} in
"") ;;
--dir) MODE=dir ;;
--key) MODE=key ;;
--source) MODE=source ;;
*) echo "usage: $0 [--dir | --key | --source]" >&2; exit 2 ;;
esac

# "VERSION TARBALL" of the source to build.
source_choice() {
	if [ -n "${LINUX_SOURCE:-}" ]; then
		echo "$(stat -c '%s-%Y' "$LINUX_SOURCE" 2>/dev/null || echo none) $LINUX_SOURCE"
		return
	fi
	"$TOOLS/trixie-kernel.sh" --source 2>/dev/null ||
		echo "none $ROOT/linux-source/none/$SRCPKG.tar.xz"
}

ROOT=$(vseg_cache)
read -r SRCVER TARBALL < <(source_choice)
if [ "$MODE" = source ]; then
	echo "$SRCVER $TARBALL"
	exit 0
fi

cache_key() {
	{
		echo "fragment $(sha256sum <"$FRAGMENT")"
		echo "source $SRCVER"
		echo "script $(sha256sum <"$SELF")"
		echo "cc $(${CC:-gcc} --version 2>/dev/null | head -n 1)"
	} | sha256sum | cut -c1-16
}

[ -r "$FRAGMENT" ] || die "no fragment $FRAGMENT"
KEY=$(cache_key)
if [ "$MODE" = key ]; then
	echo "$KEY"
	exit 0
fi
BASE=$ROOT/debug-kernel
mkdir -p "$BASE"
DIR=$BASE/$KEY

if [ "$MODE" = dir ]; then
	[ -e "$DIR/.complete" ] || exit 1
	echo "$DIR"
	exit 0
fi

exec 7>"$BASE/.$KEY.lock"
if ! flock -n 7; then
	log "waiting for another build of $DIR"
	flock 7
fi
if [ -e "$DIR/.complete" ]; then
	touch "$DIR"
	echo "$DIR"
	exit 0
fi

[ -r "$TARBALL" ] || die "no $TARBALL ($SRCPKG $SRCVER): run tools/install-deps.sh"

# Leftovers of interrupted builds of this key (we hold its lock).
rm -rf "$BASE/.$KEY.tmp."* "$DIR"
TMP=$BASE/.$KEY.tmp.$$
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP"
t0=$SECONDS

log "building $KEY: $SRCPKG $SRCVER, tinyconfig + $(basename "$FRAGMENT"), -j$JOBS (10-20 min)"
top=$(tar -tJf "$TARBALL" | head -n 1 | cut -d/ -f1) || true
[ -n "$top" ] || die "cannot list $TARBALL"
tar -xJf "$TARBALL" -C "$TMP"
mv "$TMP/$top" "$TMP/src"
SRC=$TMP/src
BLOG=$TMP/build.log

run() {
	if ! "$@" >>"$BLOG" 2>&1; then
		tail -n 40 "$BLOG" >&2
		cp "$BLOG" "$BASE/failed-$KEY.log"
		die "failed: $* (log: $BASE/failed-$KEY.log)"
	fi
}

cd "$SRC"
# DRM_GPUVM (drm_gpuvm.ko) has no prompt, and on x86 only nouveau and xe
# select it: nouveau would make the build about two thirds as long again
# (775 files to the 1225 objects of the rest). A prompt makes it selectable
# by the fragment; its code stays the stock kernel's. (The fragment check
# below fails the build if this stops matching.)
sed -i '/^config DRM_GPUVM$/,/^$/ s/^\ttristate$/\ttristate "GPU VA manager (vseg debug kernel)"/' \
	drivers/gpu/drm/Kconfig
run make tinyconfig
run scripts/kconfig/merge_config.sh -m .config "$FRAGMENT"
run make olddefconfig

# Every option of the fragment must have survived olddefconfig.
lost=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) ;;
	*) continue ;;
	esac
	name=${line%%=*}
	val=${line#*=}
	if [ "$val" = n ]; then
		got=$(grep -E "^$name=[ym]" .config) && lost+=("$line (got: $got)")
	elif ! grep -qxF "$line" .config; then
		got=$(grep -E "^$name=|^# $name is not set" .config) || got=absent
		lost+=("$line (got: $got)")
	fi
done <"$FRAGMENT"
if [ ${#lost[@]} -gt 0 ]; then
	log "these options of $FRAGMENT did not survive make olddefconfig:"
	printf '  %s\n' "${lost[@]}" >&2
	die "a missing dependency or select: fix the fragment"
fi
cp .config "$TMP/config"

run make -j"$JOBS" bzImage modules
KVER=$(make -s kernelrelease)
run make modules_install INSTALL_MOD_PATH="$TMP/modroot"
# relative, so that it survives the rename below
ln -sfn ../../../../src "$TMP/modroot/lib/modules/$KVER/build"
rm -f "$TMP/modroot/lib/modules/$KVER/source"
cp arch/x86/boot/bzImage "$TMP/bzImage"
echo "$KVER" >"$TMP/kver"
{
	echo "fragment sha256 $(sha256sum <"$FRAGMENT" | cut -d' ' -f1)"
	echo "source $SRCPKG $SRCVER ($TARBALL)"
	echo "script sha256 $(sha256sum <"$SELF" | cut -d' ' -f1)"
	echo "cc $(${CC:-gcc} --version 2>/dev/null | head -n 1)"
	echo "built $(date -u +%FT%TZ) in $((SECONDS - t0)) s with -j$JOBS"
} >"$TMP/key-info"
cd "$BASE"

: >"$TMP/.complete"
mv -T "$TMP" "$DIR"
trap - EXIT
log "built $KVER in $((SECONDS - t0)) s: $DIR"

# Keep the most recently used kernels only.
mapfile -t old < <(find "$BASE" -mindepth 2 -maxdepth 2 -name .complete \
	-printf '%h\n' | xargs -r ls -1dt | tail -n +$((KEEP + 1)))
for d in "${old[@]}"; do
	[ "$d" = "$DIR" ] && continue
	flock -n "$BASE/.$(basename "$d").lock" rm -rf "$d" &&
		log "removed the old kernel $d"
done
echo "$DIR"
