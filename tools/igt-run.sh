#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# In-guest IGT runner (run it inside tools/vm-run.sh). For each test binary:
# list its subtests, run each alone under a timeout, judge it by its output
# ("Subtest NAME: SUCCESS|SKIP|FAIL (t s)") and exit code (0 pass, 77 skip,
# anything else fail), and fail it if the kernel logged a splat meanwhile
# (tools/klog-check.sh; lines the test announced with
# igt_emit_ignore_dmesg_regex() are not splats, as for igt_runner).
# The vseg module is unloaded before and after each binary (the tests load
# it with igt_kmod_load(), which searches IGT_KMOD_PATH); a failed unload is
# an extra FAIL result "<bin>/module-unload".
#
# usage: tools/igt-run.sh [-r RESULTS_DIR] [-t SECONDS] [-m KMOD_DIR] [-c CHECKER]
#                         [-l LIST_DIR] BIN...
#   -r  results dir (default $OUTDIR/igt-results or ./igt-results): per-test
#       logs <bin>/<subtest>.log, results.txt (one line per result, written as
#       it goes), summary ("PASSED FAILED SKIPPED" on one line), running
#       (the test in progress: left behind if the guest died)
#   -t  per-subtest timeout (default 120)
#   -m  dir holding vseg.ko for the running kernel, exported as IGT_KMOD_PATH
#       (default: build/$(uname -r)/drivers/gpu/drm/vseg in this repo)
#   -c  kernel log checker (default tools/klog-check.sh): reads log text on
#       stdin, prints offending lines and exits nonzero on a splat
#   -l  listings made beforehand (tools/check.sh, on the host): LIST_DIR/BIN.list
#       and LIST_DIR/BIN.rc, the output and exit status of "BIN
#       --list-subtests"; a BIN without them is listed here
# Each result goes to the console as "[k/N] STATUS NAME (SECONDS s)", N being
# the number of subtests of all the BINs (listed first).
# Exit status: 0 if nothing failed, 1 otherwise.

USAGE_LINES=14,27
# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RESULTS=
TMO=120
KMOD_DIR=
CHECKER=$TOOLS/klog-check.sh
LISTS=

while getopts r:t:m:c:l:h opt; do
	case $opt in
	r) RESULTS=$OPTARG ;;
	t) TMO=$OPTARG ;;
	m) KMOD_DIR=$OPTARG ;;
	c) CHECKER=$OPTARG ;;
	l) LISTS=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage

KVER=$(uname -r)
[ -n "$RESULTS" ] || RESULTS=${OUTDIR:-.}/igt-results
[ -n "$KMOD_DIR" ] || KMOD_DIR=$REPO/build/$KVER/drivers/gpu/drm/vseg
KMOD_DIR=$(realpath -m "$KMOD_DIR")
[ -e "$KMOD_DIR/vseg.ko" ] || log "warning: no $KMOD_DIR/vseg.ko"
export IGT_KMOD_PATH=$KMOD_DIR

mkdir -p "$RESULTS"
: >"$RESULTS/results.txt"
rm -f "$RESULTS/summary"
PASSED=0 FAILED=0 SKIPPED=0

# --- kernel log -----------------------------------------------------------
# A background dd copies /dev/kmsg ("prio,seq,usec,flags;text" records plus
# " KEY=value" lines) into $KLOG; fd 7 reads it on. After each test a sync
# marker goes into /dev/kmsg and everything up to it is checked, so each
# kernel message is checked exactly once, with the test it happened in.
KLOG=$(mktemp /tmp/igt-run-kmsg.XXXXXX)
KNEW=$KLOG.new
dd if=/dev/kmsg of="$KLOG" bs=16384 conv=noerror 2>/dev/null &
KPID=$!
trap 'kill $KPID 2>/dev/null; rm -f "$KLOG" "$KNEW"' EXIT
exec 7<"$KLOG"
KSYNC=0

kmsg() { echo "$*" >/dev/kmsg 2>/dev/null || true; }

# A fifo nobody writes: "read -t" on it is a sleep without a fork.
mkfifo "$KLOG.fifo"
exec 6<>"$KLOG.fifo"
rm -f "$KLOG.fifo"
nap() { read -r -t "$1" -u 6 _ || true; }

# kmsg_new: the kernel messages since the last call, into $KNEW
kmsg_new() {
	local line msg marker deadline pending=
	KSYNC=$((KSYNC + 1))
	marker="igt-run: sync $$.$KSYNC"
	kmsg "$marker"
	: >"$KNEW"
	deadline=$((SECONDS + 20))
	while :; do
		if ! IFS= read -r -u 7 line; then
			pending+=$line
			if [ $SECONDS -ge $deadline ] || ! kill -0 $KPID 2>/dev/null; then
				echo "igt-run: lost the kernel log (reader gone or no sync)" >>"$KNEW"
				return 1
			fi
			nap 0.01
			continue
		fi
		line=$pending$line
		pending=
		case $line in " "*) continue ;; esac
		msg=${line#*;}
		[ "$msg" = "$marker" ] && return 0
		printf '%s\n' "$msg" >>"$KNEW"
	done
}

# kmsg_check: check the kernel messages since the last call: sets SPLATS to
# the offending lines and fails if there are any
SPLATS=
if [ "$CHECKER" = "$TOOLS/klog-check.sh" ]; then
	# shellcheck source=tools/klog-check.sh
	. "$TOOLS/klog-check.sh"
	kmsg_check() {
		SPLATS=
		if ! kmsg_new; then
			SPLATS=$(<"$KNEW")
			return 1
		fi
		klog_scan <"$KNEW"
		SPLATS=$KLOG_HITS
		[ -z "$SPLATS" ]
	}
else
	kmsg_check() {
		SPLATS=
		if ! kmsg_new; then
			SPLATS=$(<"$KNEW")
			return 1
		fi
		SPLATS=$("$CHECKER" <"$KNEW") && return 0
		[ -n "$SPLATS" ] || SPLATS="($CHECKER failed)"
		return 1
	}
fi

# --- results --------------------------------------------------------------
# result STATUS NAME SECONDS [LOGFILE [SPLATS]]: on the console with its
# place, "[k/N] ", in the whole run (an extra result, a failed module
# unload, shares the number of the subtest before it).
DONE=0
result() {
	local st=$1 name=$2 t=$3 log=${4:-} splats=${5:-}
	case $name in */module-unload) ;; *) DONE=$((DONE + 1)) ;; esac
	printf '[%d/%d] %s %s (%ss)\n' "$DONE" "${TOTAL:-0}" "$st" "$name" "$t"
	printf '%s %s (%ss)\n' "$st" "$name" "$t" >>"$RESULTS/results.txt"
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
		printf '%s\n' "$splats" | head -n 60 | sed '/^$/d'
		# kept with its output (make check's summary repeats its end)
		[ -n "$log" ] && {
			echo "---- kernel log splats during $name ----"
			printf '%s\n' "$splats" | head -n 12 | sed '/^$/d'
		} >>"$log"
	   fi
	   echo "----" ;;
	esac
}


vseg_loaded() { [ -d /sys/module/vseg ]; }

# After a timeout: the tasks still blocked in the kernel, with their
# stacks (sysrq w), for the log of the subtest that hung.
blocked_tasks() {
	[ -w /proc/sysrq-trigger ] || return 0
	echo w >/proc/sysrq-trigger
	sleep 1
	echo "---- tasks blocked after the timeout (sysrq w) ----"
	dmesg | sed -n '/Show Blocked State/,$p' | tail -n 200
}

# run_one BINPATH BIN SUBTEST|"" -> one result
run_one() {
	local path=$1 bin=$2 sub=$3 name log rc t0 t text st cmd line p
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
	echo "$name" >"$RESULTS/running"
	t0=${EPOCHREALTIME/[.,]/}
	timeout -k 5 "$TMO" "${cmd[@]}" </dev/null >"$log" 2>&1
	rc=$?
	t=$(( (${EPOCHREALTIME/[.,]/} - t0) / 1000 ))
	printf -v t '%d.%03d' $((t / 1000)) $((t % 1000))

	text=
	if [ -n "$sub" ]; then
		p="Subtest $sub: "
		while IFS= read -r line; do
			[[ $line == "$p"* ]] && text=${line#"$p"}
		done <"$log"
	fi
	case $text in
	*"("*"s)"*) t=${text##*(}; t=${t%s)*} ;;
	esac
	case $rc in
	0) st=PASS ;;
	77) st=SKIP ;;
	124|137) st=FAIL; echo "igt-run: $name: timed out after ${TMO}s" >>"$log"
		 blocked_tasks >>"$log" ;;
	*) st=FAIL ;;
	esac
	case $text in
	FAIL*) st=FAIL ;;
	SKIP*) [ "$st" = PASS ] && st=SKIP ;;
	esac
	[ "$st" = FAIL ] && [ "$rc" != 0 ] && echo "igt-run: exit code $rc" >>"$log"

	kmsg_check || st=FAIL
	result "$st" "$name" "$t" "$log" "$SPLATS"
}

unload_vseg() {
	local bin=$1 name=$1/post-run log ok=1
	log=$RESULTS/$bin/module-unload.log
	: >"$log"
	if vseg_loaded; then
		name=$bin/module-unload
		if ! rmmod vseg >>"$log" 2>&1 || vseg_loaded; then
			echo "igt-run: rmmod vseg failed" >>"$log"
			ok=0
		fi
	fi
	kmsg_check || ok=0
	[ "$ok" = 1 ] && return 0
	result FAIL "$name" 0.000 "$log" "$SPLATS"
}

# --- main -----------------------------------------------------------------
# vseg's dependencies, loaded once: no test's kernel log gets their load
load_deps "$KMOD_DIR/vseg.ko"
vseg_loaded && rmmod vseg 2>/dev/null
kmsg_new

# read_list FILE: its lines that are not blank, into the array SUBS (no
# fork: a process costs a good part of a second on the debug kernel)
read_list() {
	local l
	SUBS=()
	while IFS= read -r l || [ -n "$l" ]; do
		[[ $l =~ ^[[:space:]]*$ ]] || SUBS+=("$l")
	done <"$1"
}

say "$KVER: IGT_KMOD_PATH=$IGT_KMOD_PATH, results in $RESULTS"
# Every binary's subtests first, so that each result can say "[k/N]".
declare -A LRC
TOTAL=0
dirs=()
for path in "$@"; do
	dirs+=("$RESULTS/${path##*/}")
done
mkdir -p "${dirs[@]}"
for path in "$@"; do
	bin=${path##*/}
	list=$RESULTS/$bin/list-subtests.log
	if [ ! -x "$path" ]; then
		: >"$list"
		LRC[$bin]=126
		TOTAL=$((TOTAL + 1))
		continue
	fi
	if [ -n "$LISTS" ] && [ -f "$LISTS/$bin.rc" ] && [ -f "$LISTS/$bin.list" ] &&
		read -r lrc <"$LISTS/$bin.rc"; then
		LRC[$bin]=$lrc
		read_list "$LISTS/$bin.list"
		: >"$list.err"
		[ "$lrc" = 0 ] || [ ! -f "$LISTS/$bin.err" ] ||
			cp "$LISTS/$bin.err" "$list.err"
		if [ ${#SUBS[@]} -gt 0 ]; then
			printf '%s\n' "${SUBS[@]}" >"$list"
		else
			: >"$list"
		fi
	else
		timeout -k 5 "$TMO" "$path" --list-subtests </dev/null >"$list" 2>"$list.err"
		LRC[$bin]=$?
		read_list "$list"
	fi
	if [ "${LRC[$bin]}" = 0 ] && [ ${#SUBS[@]} -gt 0 ]; then
		TOTAL=$((TOTAL + ${#SUBS[@]}))
	else
		TOTAL=$((TOTAL + 1))
	fi
done
say "$KVER: $TOTAL subtests in $# programs"

for path in "$@"; do
	bin=${path##*/}
	if vseg_loaded; then
		rmmod vseg 2>/dev/null || say "warning: vseg still loaded before $bin"
	fi
	kmsg_new
	if [ ! -x "$path" ]; then
		say "$path: not an executable" >"$RESULTS/$bin/$bin.log"
		result FAIL "$bin" 0.000 "$RESULTS/$bin/$bin.log"
		continue
	fi

	list=$RESULTS/$bin/list-subtests.log
	lrc=${LRC[$bin]}
	read_list "$list"
	if [ "$lrc" = 0 ] && [ ${#SUBS[@]} -gt 0 ]; then
		for sub in "${SUBS[@]}"; do
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

rm -f "$RESULTS/running"
echo "$PASSED $FAILED $SKIPPED" >"$RESULTS/summary"
say "$KVER: $PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" = 0 ]
