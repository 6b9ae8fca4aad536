#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# In-guest part of "make bench": load the anchors (vgem, and bochs on the
# guest's bochs-display device) next to the DRM/TTM modules vseg needs, then
# run every subtest of each benchmark binary (each loads vseg itself through
# igt_kmod_load, with the benchmark's module options), appending their
# output to $OUTDIR/bench.log. A kernel splat logged meanwhile
# (klog-check.sh) fails the run. Exit status nonzero on any failure.
#
# usage: tools/bench-guest.sh KMOD_DIR BIN...
#   KMOD_DIR  directory holding vseg.ko for the running kernel (IGT_KMOD_PATH)
# Environment: BENCH_SUBTESTS (space-separated subset), BENCH_SUBTEST_TIMEOUT
# (seconds, default 600), VSEG_BENCH_RUNS, VSEG_BENCH_SCALE (see
# benchmarks/vseg_bench.c), BENCH_PERF=1: run each subtest under
# "perf record -a -g" and leave "perf report" text in $OUTDIR/perf-SUBTEST.txt
# (self time), perf-SUBTEST-children.txt (with callees), -graph.txt (call graphs).

# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export IGT_KMOD_PATH=${1:?usage: $0 KMOD_DIR BIN...}
shift
LOG=${OUTDIR:-/tmp}/bench.log
TMO=${BENCH_SUBTEST_TIMEOUT:-600}
rc=0

load_deps "$IGT_KMOD_PATH/vseg.ko"
for m in vgem bochs; do
	modprobe -q "$m" 2>/dev/null || say "modprobe $m failed"
done
for c in /sys/class/drm/card*; do
	[ -e "$c/device/driver" ] || continue
	say "$(basename "$c"): $(basename "$(readlink "$c/device/driver")")"
done
: >"$LOG"
dmesg -c >/dev/null 2>&1 || true

for bin in "$@"; do
	subs=${BENCH_SUBTESTS:-$("$bin" --list-subtests)}
	for s in $subs; do
		say "$(basename "$bin") $s"
		start=$(date +%s)
		if [ "${BENCH_PERF:-0}" = 1 ] && command -v perf >/dev/null; then
			timeout -k 10 "$TMO" perf record -q -a -g -o "/tmp/perf-$s.data" -- \
				"$bin" --run-subtest "$s" 2>&1 | tee -a "$LOG"
			r=${PIPESTATUS[0]}
			perf report -i "/tmp/perf-$s.data" --stdio --no-children \
				--comms "$(basename "$bin")" --percent-limit 0.5 -g none 2>/dev/null >"$OUTDIR/perf-$s.txt"
			perf report -i "/tmp/perf-$s.data" --stdio --no-children \
				--comms "$(basename "$bin")" --percent-limit 3 -g graph,0.5,caller --max-stack 16 \
				2>/dev/null >"$OUTDIR/perf-$s-graph.txt"
			perf report -i "/tmp/perf-$s.data" --stdio --children \
				--comms "$(basename "$bin")" --percent-limit 2 -g none \
				2>/dev/null >"$OUTDIR/perf-$s-children.txt"
			perf report -i "/tmp/perf-$s.data" --stdio --no-children \
				--sort comm,dso,sym --percent-limit 0.5 -g none \
				2>/dev/null >"$OUTDIR/perf-$s-all.txt"
			rm -f "/tmp/perf-$s.data"
		else
			timeout -k 10 "$TMO" "$bin" --run-subtest "$s" 2>&1 | tee -a "$LOG"
			r=${PIPESTATUS[0]}
		fi
		say "$s: exit $r, $(($(date +%s) - start)) s"
		[ "$r" = 0 ] || rc=1
		if ! dmesg -c >"$OUTDIR/.klog" 2>&1 || ! "$TOOLS/klog-check.sh" "$OUTDIR/.klog"; then
			say "kernel log splat during $s"
			rc=1
		fi
	done
done
rm -f "$OUTDIR/.klog"
exit $rc
