#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the kernel's checkpatch.pl --strict over the vseg sources. checkpatch.pl
# and its data files are taken once from Debian's linux-source-6.12 tarball
# (tools/install-deps.sh --checkpatch installs it) into build/checkpatch/.
#
# usage: tools/checkpatch.sh [FILE...]   (default: the driver and UAPI header)

# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
set -e
CP=$REPO/build/checkpatch
TARBALL=/usr/src/linux-source-6.12.tar.xz
FILES=(checkpatch.pl spelling.txt const_structs.checkpatch)

if [ ! -x "$CP/checkpatch.pl" ]; then
	[ -r "$TARBALL" ] || "$TOOLS/install-deps.sh" --checkpatch
	log "extracting scripts/checkpatch.pl from $TARBALL"
	top=$(tar -tJf "$TARBALL" 2>/dev/null | head -n 1 | cut -d/ -f1) || true
	[ -n "$top" ] || top=linux-source-6.12
	mkdir -p "$CP"
	tar -xJf "$TARBALL" -C "$CP" --strip-components=2 \
		"${FILES[@]/#/$top/scripts/}"
	chmod +x "$CP/checkpatch.pl"
fi

cd "$REPO"
if [ $# -eq 0 ]; then
	# sources only: not kbuild's generated vseg.mod.c
	files=()
	for f in drivers/gpu/drm/vseg/*.[ch]; do
		case $f in *.mod.c) ;; *) files+=("$f") ;; esac
	done
	set -- "${files[@]}" include/uapi/drm/vseg_drm.h
fi
# LINUX_VERSION_CODE: an out-of-tree driver for 6.1 and 6.12 must test it.
if perl "$CP/checkpatch.pl" --strict --no-tree --show-types --quiet \
	--ignore LINUX_VERSION_CODE -f "$@"; then
	say "clean ($# files)"
else
	say "problems found (above)"
	exit 1
fi
