#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The debug tier's job inside the debug-kernel guest (tools/check.sh runs it
# through tools/vm-run.sh): a module holding TTM's global state first (-H),
# then the IGT suite (tools/igt-run.sh), the KUnit module (kunit-run.sh),
# then a kmemleak scan. Leaks the kernel already held at boot are set aside
# first ("clear"); any kmemleak report after the tests is a FAIL result
# "debug/kmemleak" (the report is kept in
# RESULTS/kmemleak.txt); lockdep must still be on at the end (result
# "debug/lockdep-active"). Everything lands in RESULTS/results.txt in
# igt-run.sh's format; RESULTS/summary is rewritten to count it all.
#
# usage: tools/debug-kernel/guest-check.sh -r RESULTS_DIR [-u KUNIT.ko] [-H HOLD.ko]
#            [-t SECONDS] -- IGT_RUN_ARGS... (without -r)
#   -u  KUnit module to run after the IGT tests (skipped if absent)
#   -H  module loaded before everything and kept (vseg_ttm_hold.ko: an idle
#       TTM device, so that TTM's global state is set up once, before any
#       fault injection, and is not torn down and set up again with every
#       reload of vseg; Linux 7.3's TTM leaks, or oopses after an injected
#       allocation failure, when it is); a failed load is the result
#       debug/ttm-hold, failed
#   -t  timeout of the KUnit module's run (default 600)
# Exit status: 0 if nothing failed, 1 otherwise.

USAGE_LINES=13,23
# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
TOOLS=$(dirname "$HERE")
RESULTS=
KUNIT=
HOLD=
KTMO=600
while getopts r:u:H:t:h opt; do
	case $opt in
	r) RESULTS=$OPTARG ;;
	u) KUNIT=$OPTARG ;;
	H) HOLD=$OPTARG ;;
	t) KTMO=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$RESULTS" ] || usage
KVER=$(uname -r)
KMEMLEAK=/sys/kernel/debug/kmemleak
mkdir -p "$RESULTS"

line() {
	printf '%s %s (%ss)\n' "$1" "$2" "$3"
	printf '%s %s (%ss)\n' "$1" "$2" "$3" >>"$RESULTS/results.txt"
}

rc=0
hold_failed=0
if [ -n "$HOLD" ]; then
	# its own dependencies (ttm, drm) from the kernel's tree
	if load_deps "$HOLD" && insmod "$HOLD"; then
		say "$(basename "$HOLD" .ko): TTM's global state held for the run"
	else
		log "cannot load $HOLD"
		hold_failed=1
		rc=1
	fi
fi

# Boot-time reports are not ours: scan once and set them aside.
if [ -w "$KMEMLEAK" ]; then
	t0=$SECONDS
	echo scan >"$KMEMLEAK" && echo clear >"$KMEMLEAK"
	say "kmemleak: boot-time objects set aside ($((SECONDS - t0)) s)"
fi

if [ $# -gt 0 ]; then
	"$TOOLS/igt-run.sh" -r "$RESULTS" "$@" || rc=1
fi
# (igt-run.sh starts results.txt afresh)
[ "$hold_failed" = 0 ] || line FAIL debug/ttm-hold 0.000

if [ -n "$KUNIT" ]; then
	if [ -f "$KUNIT" ]; then
		"$HERE/kunit-run.sh" -r "$RESULTS" -t "$KTMO" "$KUNIT" || rc=1
	else
		log "no $KUNIT: KUnit tests not built"
		line FAIL "kunit/$(basename "$KUNIT" .ko)" 0.000
		rc=1
	fi
fi

# kmemleak reports an object only once it is 5 s old and was seen
# unreferenced by a scan: scan, wait, scan again.
if [ -w "$KMEMLEAK" ]; then
	t0=$SECONDS
	echo scan >"$KMEMLEAK"
	sleep 6
	echo scan >"$KMEMLEAK"
	cat "$KMEMLEAK" >"$RESULTS/kmemleak.txt"
	t=$((SECONDS - t0))
	if [ -s "$RESULTS/kmemleak.txt" ]; then
		line FAIL debug/kmemleak "$t.000"
		echo "---- kmemleak report ($(grep -c 'unreferenced object' \
			"$RESULTS/kmemleak.txt") objects, $RESULTS/kmemleak.txt) ----"
		head -n 80 "$RESULTS/kmemleak.txt"
		echo "----"
		rc=1
	else
		line PASS debug/kmemleak "$t.000"
	fi
else
	log "no $KMEMLEAK (not a kmemleak kernel?)"
	line FAIL debug/kmemleak 0.000
	rc=1
fi

# Lockdep switches itself off after its first report, and on any taint
# but an out-of-tree module's (a KASAN report, a WARN): lock checking
# must still have been on at the end, or part of the run went unchecked.
if [ -r /proc/lockdep_stats ]; then
	if grep -Eq '^ *debug_locks: *1$' /proc/lockdep_stats; then
		line PASS debug/lockdep-active 0.000
	else
		line FAIL debug/lockdep-active 0.000
		echo "---- lock debugging was switched off during the run (an earlier report or a taint: $(cat /proc/sys/kernel/tainted)) ----"
		rc=1
	fi
fi

p=$(grep -c '^PASS ' "$RESULTS/results.txt")
f=$(grep -c '^FAIL ' "$RESULTS/results.txt")
s=$(grep -c '^SKIP ' "$RESULTS/results.txt")
echo "$p $f $s" >"$RESULTS/summary"
say "$KVER: $p passed, $f failed, $s skipped (IGT + KUnit + kmemleak)"
exit "$rc"
