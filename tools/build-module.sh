#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build vseg.ko for one or more kernels, each in its own copy of the module
# sources (build/KVER/: Kbuild, drivers/, include/) so objects never collide,
# with W=1. Fails if the build prints any "warning:" (the log is kept in
# build/KVER/build.log; with V=1 in the environment it also goes to the
# terminal, with kbuild's command lines). With -s, also runs sparse over
# every file (C=2) and fails on any sparse warning or error
# (build/KVER/sparse.log).
#
# usage: tools/build-module.sh [-s] [-K KDIR] KVER...
#   -K KDIR  build against this kernel tree instead of /lib/modules/KVER/build
#            (the debug kernel of tools/debug-kernel/)
# A kernel whose headers are not installed on the host but in a build root
# of tools/trixie-kernel.sh (Debian 13's 7.3, made for gcc 14 and glibc
# 2.38) is built in that build root (its compiler, its kbuild tools), the
# copy of the sources bound at the same path.
# Output: build/KVER/drivers/gpu/drm/vseg/vseg.ko (and, against a kernel
# with CONFIG_KUNIT, build/KVER/drivers/gpu/drm/vseg/tests/vseg_test.ko)

# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
set -e
SPARSE=0
KDIR=
while [ $# -gt 0 ]; do
	case $1 in
	-s) SPARSE=1; shift ;;
	-K) KDIR=${2:?}; shift 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: $0 [-s] [-K KDIR] KVER..." >&2; exit 2; }

JOBS=$(nproc 2>/dev/null || echo 2)
SRCS=(Kbuild drivers include)
ARTIFACTS=(--exclude='*.o' --exclude='*.ko' --exclude='*.ko.xz' --exclude='*.mod'
	--exclude='*.mod.c' --exclude='*.cmd' --exclude='*.a' --exclude='*.d'
	--exclude='Module.symvers' --exclude='modules.order' --exclude='.tmp_versions'
	--exclude='*.orig' --exclude='*.rej' --exclude='*~')

# Copy the sources that changed since the last copy, each stamped now, so
# kbuild stays incremental and rebuilds whatever a copy changed, even an
# object built after the source's own mtime (from an older copy, a build
# that raced an edit); drop sources deleted since the last copy.
sync_tree() {
	local dst=$1 f stage
	mkdir -p "$dst"
	stage=$(mktemp -d)
	(cd "$REPO" && tar -c "${ARTIFACTS[@]}" "${SRCS[@]}") | tar -x -C "$stage"
	(cd "$stage" && find . -type f -print) | while read -r f; do
		cmp -s "$stage/$f" "$dst/$f" && continue
		mkdir -p "$(dirname "$dst/$f")"
		cp "$stage/$f" "$dst/$f"
	done
	rm -rf "$stage"
	(cd "$dst" && find "${SRCS[@]}" -type f \( -name '*.[ch]' -o -name Makefile \
		-o -name Kbuild \) -print) | while read -r f; do
		[ -e "$REPO/$f" ] || rm -f "$dst/$f"
	done
}

# kmake ARGS...: make for $kver, on the host or in its build root
kmake() {
	if [ -n "$broot" ]; then
		"$TOOLS/trixie-kernel.sh" --make "$kver" "$dst" "$@"
	else
		make "$@"
	fi
}

fail=0
for kver in "$@"; do
	kdir=${KDIR:-/lib/modules/$kver/build}
	dst=$REPO/build/$kver
	broot=
	if [ -z "$KDIR" ] && [ ! -d "$kdir" ] &&
		broot=$("$TOOLS/trixie-kernel.sh" --root "$kver" 2>/dev/null); then
		# the path inside the build root
		[ -d "$broot$kdir" ] || broot=
	fi
	if [ ! -d "$kdir" ] && [ -z "$broot" ]; then
		log "no headers for $kver ($kdir)"
		fail=1
		continue
	fi
	mkdir -p "$dst"
	# concurrent builds of one tree for one kernel wait for each other
	exec 8>"$dst/.lock"
	flock 8
	sync_tree "$dst"

	say "$kver: make W=1 (log: build/$kver/build.log)${broot:+, in its Debian 13 build root}"
	if [ "${V:-0}" = 1 ]; then
		# every command line, on the terminal too
		kmake -C "$kdir" M="$dst" W=1 V=1 -j"$JOBS" modules 2>&1 | tee "$dst/build.log"
	else
		kmake -C "$kdir" M="$dst" W=1 -j"$JOBS" modules >"$dst/build.log" 2>&1
	fi || {
		[ "${V:-0}" = 1 ] || cat "$dst/build.log"
		log "$kver: BUILD FAILED"
		fail=1
		continue
	}
	if grep -i 'warning:' "$dst/build.log"; then
		# objects built with warnings would not be rebuilt (nor warn) next time
		find "$dst" -name '*.o' -delete
		log "$kver: the build printed warnings (above)"
		fail=1
		continue
	fi
	say "$kver: ok: build/$kver/drivers/gpu/drm/vseg/vseg.ko"

	if [ "$SPARSE" = 1 ]; then
		say "$kver: sparse (C=2, log: build/$kver/sparse.log)"
		if ! kmake -C "$kdir" M="$dst" W=1 C=2 -j"$JOBS" modules >"$dst/sparse.log" 2>&1; then
			cat "$dst/sparse.log"
			log "$kver: sparse build FAILED"
			fail=1
			continue
		fi
		if grep -iE 'warning:|error:' "$dst/sparse.log"; then
			log "$kver: sparse found problems (above)"
			fail=1
			continue
		fi
		say "$kver: sparse clean"
	fi
done
exit "$fail"
