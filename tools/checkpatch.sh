#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the kernel's checkpatch.pl --strict over the vseg sources. checkpatch.pl
# and its data files are taken once from Debian's linux-source-7.3 tarball,
# the debug kernel's (tools/install-deps.sh --checkpatch fetches it into
# the cache), into build/checkpatch/ (again when the tarball changes).
#
# usage: tools/checkpatch.sh [FILE...]   (default: the driver and UAPI header)

# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
set -e
CP=$REPO/build/checkpatch
FILES=(checkpatch.pl spelling.txt const_structs.checkpatch)

read -r _ TARBALL < <("$TOOLS/debug-kernel/build.sh" --source) || TARBALL=
if [ ! -r "$TARBALL" ]; then
	"$TOOLS/install-deps.sh" --checkpatch
	read -r _ TARBALL < <("$TOOLS/debug-kernel/build.sh" --source)
fi
[ -r "$TARBALL" ] || die "no linux-source tarball for checkpatch.pl"
if [ ! -x "$CP/checkpatch.pl" ] || [ "$(cat "$CP/from" 2>/dev/null)" != "$TARBALL" ]; then
	log "extracting scripts/checkpatch.pl from $TARBALL"
	top=$(tar -tJf "$TARBALL" 2>/dev/null | head -n 1 | cut -d/ -f1) || true
	[ -n "$top" ] || top=linux-source-7.3
	rm -rf "$CP"
	mkdir -p "$CP"
	tar -xJf "$TARBALL" -C "$CP" --strip-components=2 \
		"${FILES[@]/#/$top/scripts/}"
	chmod +x "$CP/checkpatch.pl"
	echo "$TARBALL" >"$CP/from"
fi

cd "$REPO"
if [ $# -eq 0 ]; then
	# sources only: not kbuild's generated vseg.mod.c
	files=()
	for f in drivers/gpu/drm/vseg/*.[ch] drivers/gpu/drm/vseg/sim/*.[ch]; do
		case $f in *.mod.c) ;; *) files+=("$f") ;; esac
	done
	set -- "${files[@]}" include/uapi/drm/vseg_drm.h
fi
# LINUX_VERSION_CODE: an out-of-tree driver for 6.12 and 7.3 must test it
# where no feature test exists (vseg_compat.h). ALLOC_WITH_SIZEOF: 7.3's
# checkpatch.pl prefers kzalloc_obj() and its kin, which 6.12 lacks.
if perl "$CP/checkpatch.pl" --strict --no-tree --show-types --quiet \
	--ignore LINUX_VERSION_CODE,ALLOC_WITH_SIZEOF -f "$@"; then
	say "clean ($# files)"
else
	say "problems found (above)"
	exit 1
fi
