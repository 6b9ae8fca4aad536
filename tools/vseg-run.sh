#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# In-guest part of "make run": load vseg.ko with $VSEG_ARGS, print the
# device's debugfs segment table and, next to it, what tools/vseg-info shows
# without root (text and --json), run tools/vseg-example (if built) and each
# command of $RUN_EXTRA (';'-separated, run by bash), unload vseg and report
# kernel log splats. Exit status nonzero on any failure.
#
# usage: tools/vseg-run.sh PATH/TO/vseg.ko

# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
KO=${1:?usage: $0 PATH/TO/vseg.ko}
rc=0

load_deps "$KO"
dmesg -c >/dev/null 2>&1 || true

say "insmod $KO ${VSEG_ARGS:-}"
# shellcheck disable=SC2086
if ! insmod "$KO" ${VSEG_ARGS:-}; then
	say "insmod failed"
	dmesg
	exit 1
fi

dir=
for d in /sys/kernel/debug/dri/*/; do
	[ -r "$d/name" ] && grep -q vseg "$d/name" && [ -e "$d/segments" ] && { dir=$d; break; }
done
if [ -n "$dir" ]; then
	say "==== ${dir}segments ===="
	cat "${dir}segments" || rc=1
else
	say "no vseg debugfs dir with a segments file under /sys/kernel/debug/dri"
	rc=1
fi

if [ -x "$TOOLS/vseg-info" ]; then
	say "==== tools/vseg-info (the same table through the render node, no root needed) ===="
	"$TOOLS/vseg-info" || { echo "vseg-run: vseg-info failed ($?)"; rc=1; }
	say "==== tools/vseg-info --json ===="
	"$TOOLS/vseg-info" --json || { echo "vseg-run: vseg-info --json failed ($?)"; rc=1; }
fi
if [ -x "$TOOLS/vseg-example" ]; then
	say "==== tools/vseg-example ===="
	"$TOOLS/vseg-example" || { echo "vseg-run: vseg-example failed ($?)"; rc=1; }
fi
if [ -n "${RUN_EXTRA:-}" ]; then
	IFS=';' read -r -a cmds <<<"$RUN_EXTRA"
	for c in "${cmds[@]}"; do
		[ -n "${c// /}" ] || continue
		say "==== $c ===="
		bash -c "$c" || { echo "vseg-run: '$c' failed ($?)"; rc=1; }
	done
fi

say "rmmod vseg"
rmmod vseg || rc=1
say "==== kernel log since insmod ===="
dmesg | tee /tmp/vseg-run.dmesg
if ! hits=$("$TOOLS/klog-check.sh" /tmp/vseg-run.dmesg); then
	say "kernel log splats:"
	printf '%s\n' "$hits"
	rc=1
fi
exit "$rc"
