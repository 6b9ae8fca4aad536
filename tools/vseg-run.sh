#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# In-guest part of "make run": load vseg.ko with $VSEG_ARGS, print the
# device's debugfs segment table and, next to it, what tools/vseg-info shows
# without root (text and --json), run tools/vseg-example (if built) and each
# command of $RUN_EXTRA (';'-separated, run by bash), unload vseg and report
# kernel log splats. With RUN_SCREEN=1 (a guest of tools/vm-run.sh
# --screendump with QEMU's bochs-display), vseg is then loaded on that
# adapter (pci=1234:1111, fbdev=1) and the emulated screen is saved twice:
# $OUTDIR/screen-console.png, the console vseg's fbdev emulation draws, and
# $OUTDIR/screen-pattern.png, modetest's test pattern scanned out of a dumb
# buffer in the adapter's VRAM segment. Exit status nonzero on any failure.
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

# screen_step: vseg on the Bochs adapter, its fbdev console and a test
# pattern, each saved as a PNG by the host.
screen_step() {
	local conn i fifo=/tmp/vseg-run-modetest dir=

	say "==== the screen: insmod $KO pci=1234:1111 fbdev=1 ===="
	insmod "$KO" pci=1234:1111 fbdev=1 || return 1
	for ((i = 0; i < 100; i++)); do
		grep -q vsegdrmfb /proc/fb 2>/dev/null && break
		sleep 0.1
	done
	grep vsegdrmfb /proc/fb || { say "no vseg fb in /proc/fb"; return 1; }
	for d in /sys/kernel/debug/dri/*/; do
		[ -e "$d/display" ] && grep -q vseg "$d/name" && dir=$d
	done
	# The console (fbcon on vseg's fb): some text on the first VT.
	{
		printf '\033[2J\033[H'
		echo "vseg on QEMU's bochs-display (PCI 1234:1111), its VRAM BAR a memory segment:"
		echo "this console is drawn by vseg's fbdev emulation."
		echo
		[ -z "$dir" ] || cat "$dir/segments"
	} >/dev/tty1 2>/dev/null || say "no /dev/tty1 (no console on the fb)"
	sleep 1
	vm_screendump screen-console || { say "screendump failed"; return 1; }
	say "saved $OUTDIR/screen-console.png (${SECONDS}s)"

	# A test pattern from a dumb buffer (the VRAM memory segment).
	conn=$(modetest -M vseg -c | awk '$3 == "connected" { print $1; exit }')
	[ -n "$conn" ] || { say "modetest lists no connected connector"; return 1; }
	mkfifo "$fifo"
	stdbuf -oL modetest -M vseg -s "$conn:1024x768" <"$fifo" \
		>/tmp/vseg-run-modetest.log 2>&1 &
	exec 9>"$fifo"
	for ((i = 0; i < 100; i++)); do
		grep -q "setting mode" /tmp/vseg-run-modetest.log && break
		sleep 0.1
	done
	sleep 1
	[ -z "$dir" ] || { say "${dir}display:"; cat "$dir/display"; }
	vm_screendump screen-pattern || { say "screendump failed"; exec 9>&-; return 1; }
	say "saved $OUTDIR/screen-pattern.png (${SECONDS}s)"
	echo >&9
	exec 9>&-
	wait || { cat /tmp/vseg-run-modetest.log; return 1; }
	rm -f "$fifo"
	say "rmmod vseg (${SECONDS}s)"
	rmmod vseg
}
if [ "${RUN_SCREEN:-0}" = 1 ]; then
	screen_step || rc=1
fi
say "==== kernel log since insmod ===="
dmesg | tee /tmp/vseg-run.dmesg
if ! hits=$("$TOOLS/klog-check.sh" /tmp/vseg-run.dmesg); then
	say "kernel log splats:"
	printf '%s\n' "$hits"
	rc=1
fi
exit "$rc"
