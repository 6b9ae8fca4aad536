#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the kernels vseg supports and that are here: the newest 6.12 Debian
# amd64 kernel having both an image in /boot and headers in
# /lib/modules/KVER/build (Debian 12's bookworm-backports), and the newest
# 7.3 kept in the cache by tools/trixie-kernel.sh (Debian 13's
# trixie-backports, with its build root).
#
# usage: tools/kernels.sh            all supported kernels, one per line
#        tools/kernels.sh --default  the default one (newest 6.12)

# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
set -e

newest() {
	local d k out=
	for d in /lib/modules/"$1".*-amd64; do
		k=${d##*/}
		if [ -e "/boot/vmlinuz-$k" ] && [ -d "$d/build" ]; then
			out+="$k"$'\n'
		fi
	done
	[ -n "$out" ] && printf '%s' "$out" | sort -V | tail -n 1
	return 0
}

case ${1:-} in
--default) newest 6.12 ;;
"") newest 6.12; "$TOOLS/trixie-kernel.sh" --kver 2>/dev/null || true ;;
*) echo "usage: $0 [--default]" >&2; exit 2 ;;
esac
