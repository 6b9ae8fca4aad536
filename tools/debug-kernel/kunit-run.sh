#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# In-guest KUnit runner (debug kernel, CONFIG_KUNIT_DEBUGFS): load a KUnit
# test module (its suites run while it loads), read each new suite's KTAP
# results from /sys/kernel/debug/kunit/SUITE/results and turn every test
# case, and every parameter of a parameterized case, into a result line of
# tools/igt-run.sh's format:
#
#   PASS|FAIL|SKIP kunit/SUITE/CASE[/PARAM] (0.000s)
#
# (KTAP gives no per-case time.) A failed load, a splat in the kernel log
# (tools/klog-check.sh) while the suites ran, or a failed unload is one
# more FAIL result. Lines go to stdout and are appended to
# RESULTS/results.txt; the KTAP of each suite is kept in
# RESULTS/kunit/SUITE.ktap, the kernel log of the run in RESULTS/kunit/dmesg.txt.
#
# usage: tools/debug-kernel/kunit-run.sh [-r RESULTS_DIR] [-t SECONDS] MODULE.ko
# Exit status: 0 if nothing failed, 1 otherwise.

USAGE_LINES=17,18
# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
TOOLS=$(dirname "$HERE")
RESULTS=${OUTDIR:-.}/igt-results
TMO=600
while getopts r:t:h opt; do
	case $opt in
	r) RESULTS=$OPTARG ;;
	t) TMO=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
KO=$1
MOD=$(basename "$KO" .ko)
DBG=/sys/kernel/debug/kunit
OUT=$RESULTS/kunit
mkdir -p "$OUT"
FAILED=0

# The result lines go to RESULTS/results.txt in one write at the end (the
# output share is 9p: an append each costs a few round trips, and there
# are hundreds of lines).
RESBUF=
trap '[ -z "$RESBUF" ] || printf "%s" "$RESBUF" >>"$RESULTS/results.txt"' EXIT
result() {
	local st=$1 name=$2
	printf '%s %s (0.000s)\n' "$st" "$name"
	RESBUF+="$st $name (0.000s)"$'\n'
	[ "$st" = FAIL ] && FAILED=1
	[ $# -lt 3 ] && return 0
	echo "---- $name ----"
	printf '%s\n' "$3" | head -n 60
	echo "----"
}

# KTAP of one suite -> "STATUS kunit/SUITE/NAME" lines. A parameterized
# case is reported by its parameters (its own line only if it failed
# without a failed parameter); the suite line only if it has no case.
ktap_results() {
	awk -v suite="$1" '
	function emit(st, name) {
		gsub(/[[:space:]]+/, "_", name)
		print st " kunit/" suite "/" name
		n++
	}
	{
		match($0, /^[ \t]*/)
		ind = RLENGTH
		line = substr($0, ind + 1)
		if (line ~ /^# Subtest: /) {
			if (ind > 0) { cur = substr(line, 12); np = 0; pf = 0 }
			next
		}
		if (line !~ /^(not )?ok [0-9]+/)
			next
		st = line ~ /^not ok/ ? "FAIL" : "PASS"
		sub(/^(not )?ok [0-9]+ ?/, "", line)
		name = line
		if (match(name, / # [Ss][Kk][Ii][Pp]/)) {
			name = substr(name, 1, RSTART - 1)
			if (st == "PASS")
				st = "SKIP"
		}
		sub(/ #.*$/, "", name)
		if (ind >= 8) {
			emit(st, cur "/" name)
			np++
			if (st == "FAIL")
				pf++
		} else if (ind > 0) {
			if (!np || (st == "FAIL" && !pf))
				emit(st, name)
			np = 0
			pf = 0
		} else if (!n) {
			emit(st, "(suite)")
		}
	}'
}

# A dependency the kernel does not have is built beside the test module
# (vseg.ko, whose exports the suites call): insmod it from there, after its
# own dependencies, and remove it again at the end.
LOCAL=()
load_dep() {
	local m=$1 ko d
	[ -d "/sys/module/${m//-/_}" ] && return 0
	modprobe -q "$m" 2>/dev/null && return 0
	ko=$(dirname "$KO")/../$m.ko
	if [ ! -f "$ko" ]; then
		log "cannot load $m"
		return 1
	fi
	for d in $(modinfo -F depends "$ko" 2>/dev/null | tr ',' ' '); do
		load_dep "$d"
	done
	insmod "$ko" && LOCAL=("$m" "${LOCAL[@]}")
}
for m in $(modinfo -F depends "$KO" 2>/dev/null | tr ',' ' '); do
	load_dep "$m"
done
if [ ! -d "$DBG" ]; then
	result FAIL "kunit/$MOD" "no $DBG: not a kernel with CONFIG_KUNIT_DEBUGFS"
	exit 1
fi
before=$(ls "$DBG")
marker="kunit-run: $MOD $$ $EPOCHREALTIME"
echo "$marker" >/dev/kmsg
t0=$SECONDS
timeout -k 10 "$TMO" insmod "$KO" >"$OUT/insmod.log" 2>&1
rc=$?
say "$MOD: loaded and ran in $((SECONDS - t0)) s (insmod exit $rc)"
if [ "$rc" != 0 ]; then
	result FAIL "kunit/$MOD" "insmod $KO failed (exit $rc): $(cat "$OUT/insmod.log")"
fi

suites=()
for s in $(ls "$DBG"); do
	grep -qxF "$s" <<<"$before" || suites+=("$s")
done
if [ "$rc" = 0 ] && [ ${#suites[@]} -eq 0 ]; then
	result FAIL "kunit/$MOD" "$MOD ran no KUnit suite"
fi
for s in "${suites[@]}"; do
	cp "$DBG/$s/results" "$OUT/$s.ktap" 2>/dev/null || : >"$OUT/$s.ktap"
	lines=$(ktap_results "$s" <"$OUT/$s.ktap")
	if [ -z "$lines" ]; then
		result FAIL "kunit/$s" "no results in $DBG/$s/results"
		continue
	fi
	while read -r st name; do
		if [ "$st" = FAIL ]; then
			result FAIL "$name" "$(cat "$OUT/$s.ktap")"
		else
			result "$st" "$name"
		fi
	done <<<"$lines"
done

if [ -d "/sys/module/$MOD" ] && ! rmmod "$MOD" >>"$OUT/insmod.log" 2>&1; then
	result FAIL "kunit/$MOD/module-unload" "rmmod $MOD failed: $(cat "$OUT/insmod.log")"
fi
for m in "${LOCAL[@]}"; do
	rmmod "$m" >>"$OUT/insmod.log" 2>&1 ||
		result FAIL "kunit/$MOD/module-unload" "rmmod $m failed: $(cat "$OUT/insmod.log")"
done

# The kernel log since the marker: the suites' own output and any splat.
dmesg | sed -n "/$marker/,\$p" >"$OUT/dmesg.txt"
if ! splats=$("$TOOLS/klog-check.sh" "$OUT/dmesg.txt"); then
	result FAIL "kunit/$MOD/kernel-log" "$splats"
fi
exit "$FAILED"
