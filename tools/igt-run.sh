#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# In-guest IGT runner (run it inside tools/vm-run.sh). For each test binary:
# list its subtests, run each alone under a timeout, judge it by its output
# ("Subtest NAME: SUCCESS|SKIP|FAIL (t s)") and exit code (0 pass, 77 skip,
# anything else fail), and fail it if the kernel logged a splat meanwhile.
# The vseg module is unloaded before and after each binary (the tests load
# it with igt_kmod_load(), which searches IGT_KMOD_PATH); a failed unload is
# an extra FAIL result "<bin>/module-unload".
#
# usage: tools/igt-run.sh [-r RESULTS_DIR] [-t SECONDS] [-m KMOD_DIR] [-c CHECKER] BIN...
#   -r  results dir (default $OUTDIR/igt-results or ./igt-results): per-test
#       logs <bin>/<subtest>.log, results.txt (one line per result, written as
#       it goes), summary ("PASSED FAILED SKIPPED" on one line)
#   -t  per-subtest timeout (default 120)
#   -m  dir holding vseg.ko for the running kernel, exported as IGT_KMOD_PATH
#       (default: build/$(uname -r)/drivers/gpu/drm/vseg in this repo)
#   -c  kernel log checker (default tools/klog-check.sh): reads log text on
#       stdin, prints offending lines and exits nonzero on a splat
# Exit status: 0 if nothing failed, 1 otherwise.

set -uo pipefail

TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO=$(dirname "$TOOLS")

RESULTS=
TMO=120
KMOD_DIR=
CHECKER=$TOOLS/klog-check.sh

usage() { sed -n '12,21p' "$0" >&2; exit 2; }
while getopts r:t:m:c:h opt; do
	case $opt in
	r) RESULTS=$OPTARG ;;
	t) TMO=$OPTARG ;;
	m) KMOD_DIR=$OPTARG ;;
	c) CHECKER=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage

KVER=$(uname -r)
[ -n "$RESULTS" ] || RESULTS=${OUTDIR:-.}/igt-results
[ -n "$KMOD_DIR" ] || KMOD_DIR=$REPO/build/$KVER/drivers/gpu/drm/vseg
KMOD_DIR=$(realpath -m "$KMOD_DIR")
[ -e "$KMOD_DIR/vseg.ko" ] || echo "igt-run: warning: no $KMOD_DIR/vseg.ko" >&2
export IGT_KMOD_PATH=$KMOD_DIR

mkdir -p "$RESULTS"
: >"$RESULTS/results.txt"
rm -f "$RESULTS/summary"
PASSED=0 FAILED=0 SKIPPED=0

# --- kernel log -----------------------------------------------------------
# /dev/kmsg records are "prio,seq,usec,flags;text" plus " KEY=value" lines.
# KMSG_SEQ is the last record already examined.
KMSG_SEQ=-1
KTMP=$(mktemp)
trap 'rm -f "$KTMP"' EXIT
# kmsg_new: the records since the last call, as text, into $KTMP
kmsg_new() {
	dd if=/dev/kmsg iflag=nonblock bs=16384 2>/dev/null |
		awk -v s="$KMSG_SEQ" '
			/^ / { next }
			{ i = index($0, ";"); split(substr($0, 1, i - 1), h, ",")
			  if (h[2] + 0 > s) { print h[2] "\t" substr($0, i + 1) } }' >"$KTMP.raw"
	if [ -s "$KTMP.raw" ]; then
		KMSG_SEQ=$(tail -n 1 "$KTMP.raw" | cut -f1)
	fi
	cut -f2- "$KTMP.raw" >"$KTMP"
	rm -f "$KTMP.raw"
}
# check_splats: run the checker over $KTMP; prints hits, fails on any
check_splats() { "$CHECKER" <"$KTMP"; }
kmsg() { echo "$*" >/dev/kmsg 2>/dev/null || true; }

# --- results --------------------------------------------------------------
# result STATUS NAME SECONDS [LOGFILE [SPLATS]]
result() {
	local st=$1 name=$2 t=$3 log=${4:-} splats=${5:-}
	printf '%s %s (%ss)\n' "$st" "$name" "$t" | tee -a "$RESULTS/results.txt"
	case $st in
	PASS) PASSED=$((PASSED + 1)) ;;
	SKIP) SKIPPED=$((SKIPPED + 1)) ;;
	*) FAILED=$((FAILED + 1))
	   if [ -n "$log" ] && [ -s "$log" ]; then
		echo "---- output of $name ----"
		tail -n 100 "$log"
	   fi
	   if [ -n "$splats" ]; then
		echo "---- kernel log splats during $name ----"
		printf '%s\n' "$splats" | head -n 60
	   fi
	   echo "----" ;;
	esac
}

now() { echo "$EPOCHREALTIME"; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }

vseg_loaded() { [ -d /sys/module/vseg ]; }

# run_one BINPATH BIN SUBTEST|"" -> one result
run_one() {
	local path=$1 bin=$2 sub=$3 name log rc t0 t text st splats cmd
	if [ -n "$sub" ]; then
		name=$bin/$sub
		log=$RESULTS/$bin/$sub.log
		cmd=("$path" --run-subtest "$sub")
		kmsg "$bin: starting subtest $sub"
	else
		name=$bin
		log=$RESULTS/$bin/$bin.log
		cmd=("$path")
		kmsg "$bin: starting"
	fi
	t0=$(now)
	timeout -k 5 "$TMO" "${cmd[@]}" </dev/null >"$log" 2>&1
	rc=$?
	t=$(elapsed "$t0")

	text=
	if [ -n "$sub" ]; then
		text=$(awk -v p="Subtest $sub: " 'index($0, p) == 1 {
			r = substr($0, length(p) + 1); print r }' "$log" | tail -n 1)
	fi
	case $text in
	*"("*"s)"*) t=${text##*(}; t=${t%s)*} ;;
	esac
	case $rc in
	0) st=PASS ;;
	77) st=SKIP ;;
	124|137) st=FAIL; echo "igt-run: $name: timed out after ${TMO}s" >>"$log" ;;
	*) st=FAIL ;;
	esac
	case $text in
	FAIL*) st=FAIL ;;
	SKIP*) [ "$st" = PASS ] && st=SKIP ;;
	esac
	[ "$st" = FAIL ] && [ "$rc" != 0 ] && echo "igt-run: exit code $rc" >>"$log"

	kmsg_new
	if splats=$(check_splats); then
		splats=
	else
		st=FAIL
	fi
	result "$st" "$name" "$t" "$log" "$splats"
}

unload_vseg() {
	local bin=$1 name=$1/post-run log splats ok=1
	log=$RESULTS/$bin/module-unload.log
	: >"$log"
	if vseg_loaded; then
		name=$bin/module-unload
		if ! rmmod vseg >>"$log" 2>&1 || vseg_loaded; then
			echo "igt-run: rmmod vseg failed" >>"$log"
			ok=0
		fi
	fi
	kmsg_new
	splats=$(check_splats) || ok=0
	[ "$ok" = 1 ] && return 0
	result FAIL "$name" 0.000 "$log" "$splats"
}

# --- main -----------------------------------------------------------------
for m in drm drm_kms_helper ttm drm_buddy drm_ttm_helper; do
	modprobe -q "$m" 2>/dev/null || true
done
vseg_loaded && rmmod vseg 2>/dev/null
kmsg_new

echo "igt-run: $KVER: IGT_KMOD_PATH=$IGT_KMOD_PATH, results in $RESULTS"
for path in "$@"; do
	bin=$(basename "$path")
	mkdir -p "$RESULTS/$bin"
	if vseg_loaded; then
		rmmod vseg 2>/dev/null || echo "igt-run: warning: vseg still loaded before $bin"
	fi
	kmsg_new
	if [ ! -x "$path" ]; then
		echo "igt-run: $path: not an executable" >"$RESULTS/$bin/$bin.log"
		result FAIL "$bin" 0.000 "$RESULTS/$bin/$bin.log"
		continue
	fi

	list=$RESULTS/$bin/list-subtests.log
	timeout -k 5 "$TMO" "$path" --list-subtests </dev/null >"$list" 2>"$list.err"
	lrc=$?
	subs=()
	mapfile -t subs < <(grep -v '^[[:space:]]*$' "$list")
	if [ "$lrc" = 0 ] && [ ${#subs[@]} -gt 0 ]; then
		for sub in "${subs[@]}"; do
			run_one "$path" "$bin" "$sub"
		done
	elif [ "$lrc" = 0 ] || [ "$lrc" = 79 ]; then
		# no subtests: one result, by exit code
		run_one "$path" "$bin" ""
	else
		cat "$list" "$list.err" >"$RESULTS/$bin/$bin.log"
		echo "igt-run: $bin --list-subtests exited $lrc" >>"$RESULTS/$bin/$bin.log"
		result FAIL "$bin" 0.000 "$RESULTS/$bin/$bin.log"
	fi
	unload_vseg "$bin"
done

echo "$PASSED $FAILED $SKIPPED" >"$RESULTS/summary"
echo "igt-run: $KVER: $PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" = 0 ]
