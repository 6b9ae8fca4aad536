#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# vseg_pm's system-sleep subtests (system-standby, system-hibernate, and
# fault-race, which ends with a suspend to idle when it can): real
# transitions through the PM core (/sys/power/state with pm_test at
# "devices"), which make check skips because the guest's 9p root does not
# survive them. One guest boot per subtest, run from tmpfs by
# tools/pm-sleep-guest.sh; the result comes back on the console, and the
# console is checked for kernel splats (tools/klog-check.sh).
#
# usage: tools/pm-sleep.sh [KVER|debug]... (default: every supported kernel)
# Needs vseg built for each kernel (tools/build-module.sh; -K for debug)
# and the tests (make userspace). Exit status 1 if any subtest failed.
# PM_SLEEP_SUBTESTS: the subtests to run (default: all three).

USAGE_LINES=12,15
# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

read -r -a SUBTESTS <<<"${PM_SLEEP_SUBTESTS:-system-standby system-hibernate fault-race}"
BIN=$REPO/igt-tests/build/vseg_pm
[ -x "$BIN" ] || die "no $BIN (make userspace)"
case ${1:-} in -h|--help) usage ;; esac
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || mapfile -t kernels < <("$TOOLS/kernels.sh")

failed=0
for k in "${kernels[@]}"; do
	vm=(-k "$k")
	mver=$k
	if [ "$k" = debug ]; then
		dk=$("$TOOLS/debug-kernel/build.sh" --dir) ||
			die "no debug kernel built (tools/debug-kernel/build.sh)"
		mver=$(cat "$dk/kver")
		vm=(--kernel "$dk/bzImage" --modules "$dk/modroot" --append acpi=off)
	fi
	kmod=$REPO/build/$mver/drivers/gpu/drm/vseg
	[ -f "$kmod/vseg.ko" ] || die "no $kmod/vseg.ko (tools/build-module.sh)"
	for t in "${SUBTESTS[@]}"; do
		out=$REPO/build/pm-sleep/$k/$t
		rm -rf "$out"
		mkdir -p "$out"
		# the guest reboots from tmpfs: vm-run.sh sees no status
		"$TOOLS/vm-run.sh" "${vm[@]}" -q -t "${VM_TIMEOUT:-600}" -o "$out" -- \
			"$TOOLS/pm-sleep-guest.sh" "$kmod" "$BIN" "$t" >/dev/null 2>&1
		res=$(grep -a -o "pm-sleep-guest: RESULT $t rc=[0-9]*" \
			"$out/console.log" | tail -n 1)
		rc=${res##*rc=}
		what=$(grep -a -o "Subtest $t: [A-Z]*" "$out/console.log" | tail -n 1)
		# the console may lose the last line to the reboot: IGT's own
		if [ -z "$res" ]; then
			case $what in
			*SUCCESS) res=ok rc=0 ;;
			*SKIP) res=ok rc=77 ;;
			*FAIL) res=ok rc=1 ;;
			esac
		fi
		if [ -z "$res" ]; then
			say "$k: FAIL $t: no result (console: $out/console.log)"
			failed=1
		elif ! "$TOOLS/klog-check.sh" "$out/console.log" >"$out/splats" 2>&1; then
			say "$k: FAIL $t: kernel splat ($out/splats)"
			failed=1
		elif [ "$rc" = 0 ]; then
			say "$k: PASS $t (${what##*: })"
		elif [ "$rc" = 77 ]; then
			say "$k: SKIP $t: $(grep -a -m 1 -i 'skip' "$out/console.log")"
		else
			say "$k: FAIL $t: exit $rc (console: $out/console.log)"
			failed=1
		fi
	done
done
exit $failed
