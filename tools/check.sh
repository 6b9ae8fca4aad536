#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "make check": install dependencies, build vseg.ko for every supported
# kernel and the IGT tests, then per kernel boot it (tools/vm-run.sh), run
# every IGT binary (tools/igt-run.sh) and check the whole guest kernel log on
# the host. The last line printed is "N passed, N failed, N skipped" summed
# over kernels; the exit status is nonzero on any failure (a kernel whose
# build or VM run failed counts as a failure).
#
# Environment (the Makefile passes these):
#   KERNELS          kernels to test (default: tools/kernels.sh)
#   TESTS            test binaries, names or paths (default: make -C igt-tests list,
#                    else executables igt-tests/build/vseg_*)
#   VM_TIMEOUT       seconds per kernel VM run (default 1800)
#   SUBTEST_TIMEOUT  seconds per subtest (default 120)
#   QEMU_ARGS        extra QEMU arguments
#   GUEST_ENV        VAR=VALUE words set in the guest for the tests (make soak)
#   SKIP_DEPS=1      do not run tools/install-deps.sh
#   DEBUG_TIER       1 (default): also test the debug kernel (KASAN, lockdep,
#                    kmemleak, KUnit; tools/debug-kernel/), as the kernel
#                    named "debug" after KERNELS; 0: skip it. KERNELS=debug
#                    tests only the debug kernel.
#   DEBUG_VM_TIMEOUT, DEBUG_SUBTEST_TIMEOUT  the debug kernel's (slower)
#                    timeouts (default 3600 s and 3 x SUBTEST_TIMEOUT)
#   DEBUG_TEST_SCALE the debug kernel's VSEG_TEST_SCALE, in percent (default
#                    25): how much work the heavy stress subtests do there
#                    (Documentation/gpu/vseg-testing.rst); the other lanes
#                    run them in full. A VSEG_TEST_SCALE in GUEST_ENV wins
#   DEBUG_PARALLEL   1 (default): with other kernels and two cores or more,
#                    the debug kernel is built and run alongside them (its
#                    lines prefixed "[debug] ", its guest's results as they
#                    come); 0: after them
#   PCI_LANE         1 (default): one more guest on the stock 6.12 kernel,
#                    with an ivshmem-plain PCI device (PCI_QEMU_ARGS), where
#                    every vseg load binds it (pci=1af4:1110, its BAR 2 the
#                    first memory segment) and PCI_TESTS run (those of them
#                    in TESTS, when TESTS is given); shown as kernel "pci".
#                    0: no PCI guest
#   BOCHS_LANE       1 (default, with PCI_LANE): one more short guest on the
#                    stock 6.12 kernel, with QEMU's Bochs display adapter
#                    (BOCHS_QEMU_ARGS), where every vseg load binds it
#                    (pci=1234:1111: its BAR 0 the first memory segment, its
#                    VBE registers the display; vm-run.sh --screendump, so
#                    that vseg_bochs reads the emulated screen back) and
#                    BOCHS_TESTS run (those
#                    of them in TESTS, when TESTS is given); shown as kernel
#                    "bochs". 0: no Bochs guest. BOCHS_KVER: another of
#                    KERNELS for it
#   V=1              kbuild's command lines on the terminal too
#   VSEG_ACCEL       kvm, tcg or auto (default: KVM if a probe boot under KVM
#                    works, probed once per run, else TCG; tools/vm-run.sh)
# Each kernel's IGT results appear as "[k/N] PASS|FAIL|SKIP test/subtest".
# Output: build/check/KVER/{console.log,dmesg.txt,igt-results/}, build/check/summary
# (the debug kernel: build/check/debug/, also igt-results/kunit/ and kmemleak.txt)

# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO" || exit 1
MAKE=${MAKE:-make}
VM_TIMEOUT=${VM_TIMEOUT:-1800}
SUBTEST_TIMEOUT=${SUBTEST_TIMEOUT:-120}
DEBUG_TIER=${DEBUG_TIER:-1}
DEBUG_VM_TIMEOUT=${DEBUG_VM_TIMEOUT:-3600}
DEBUG_SUBTEST_TIMEOUT=${DEBUG_SUBTEST_TIMEOUT:-$((3 * SUBTEST_TIMEOUT))}
DEBUG_TEST_SCALE=${DEBUG_TEST_SCALE:-25}
PCI_LANE=${PCI_LANE:-1}
PCI_QEMU_ARGS=${PCI_QEMU_ARGS:-"-object memory-backend-ram,id=ivmem,size=32M -device ivshmem-plain,memdev=ivmem"}
PCI_TESTS=${PCI_TESTS:-"vseg_pci vseg_placement vseg_mmap vseg_evict vseg_exec_physical vseg_exec_virtual vseg_isolation vseg_hotunplug"}
BOCHS_LANE=${BOCHS_LANE:-$PCI_LANE}
BOCHS_QEMU_ARGS=${BOCHS_QEMU_ARGS:-"-device bochs-display"}
BOCHS_TESTS=${BOCHS_TESTS:-"vseg_bochs vseg_kms vseg_kms_clients"}

P=0 F=0 S=0
# One "make check" at a time per tree: they share build/.
mkdir -p build
exec 9>build/check.lock
if ! flock -n 9; then
	say "waiting for another make check in this tree to finish"
	flock 9
fi
# One KVM probe for the whole run (tools/vm-run.sh)
export VSEG_ACCEL_CACHE=$REPO/build/check/accel
rm -f "$VSEG_ACCEL_CACHE"
finish() {
	mkdir -p build/check
	echo "$P $F $S" >build/check/summary
	echo "$P passed, $F failed, $S skipped"
	[ "$F" = 0 ]
	exit
}

if [ "${SKIP_DEPS:-0}" != 1 ]; then
	if ! "$TOOLS/install-deps.sh"; then
		say "tools/install-deps.sh failed"
		F=$((F + 1))
		finish
	fi
fi

read -r -a kernels <<<"${KERNELS:-$("$TOOLS/kernels.sh" | tr '\n' ' ')}"
# The debug kernel is the last one, named "debug".
all_kernels=("${kernels[@]}")
kernels=()
for k in "${all_kernels[@]}"; do
	[ "$k" = debug ] || kernels+=("$k")
done
# The PCI guest ("pci") runs the stock 6.12 kernel, after it.
PCI_KVER=
if [ "$PCI_LANE" != 0 ]; then
	for k in "${kernels[@]}"; do
		case $k in 6.12.*) PCI_KVER=$k ;; esac
	done
	[ -z "$PCI_KVER" ] || kernels+=(pci)
fi
# The Bochs guest ("bochs"): the stock 6.12 kernel too (or BOCHS_KVER,
# one of KERNELS), after it.
BOCHS_KVER=${BOCHS_KVER:-}
if [ "$BOCHS_LANE" != 0 ]; then
	for k in "${kernels[@]}"; do
		case $k in
		pci) ;;
		"$BOCHS_KVER") BOCHS_KVER_SET=$k ;;
		6.12.*) [ -n "$BOCHS_KVER" ] || BOCHS_KVER_SET=$k ;;
		esac
	done
	BOCHS_KVER=${BOCHS_KVER_SET:-}
	[ -z "$BOCHS_KVER" ] || kernels+=(bochs)
fi
[ "$DEBUG_TIER" = 0 ] || kernels+=(debug)
if [ ${#kernels[@]} -eq 0 ]; then
	say "no supported kernel installed"
	F=$((F + 1))
	finish
fi
say "kernels: ${kernels[*]}"

if ! $MAKE --no-print-directory userspace; then
	say "FAIL: userspace build"
	F=$((F + 1))
	finish
fi

# The test binaries.
all=()
# (without our make's command-line variables: TESTS means something else there)
if [ -f igt-tests/Makefile ] &&
	list=$(env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u TESTS \
		make -s --no-print-directory -C igt-tests list 2>/dev/null); then
	while read -r t; do
		[ -n "$t" ] || continue
		case $t in /*) ;; *) [ -e "igt-tests/$t" ] && t=$REPO/igt-tests/$t || t=$REPO/$t ;; esac
		all+=("$t")
	done <<<"$list"
else
	for t in igt-tests/build/vseg_*; do
		[ -f "$t" ] && [ -x "$t" ] && all+=("$REPO/$t")
	done
fi
tests=()
if [ -n "${TESTS:-}" ]; then
	for want in $TESTS; do
		found=
		for t in "${all[@]}"; do
			[ "$(basename "$t")" = "$want" ] && found=$t
		done
		[ -n "$found" ] || found=$(realpath -m "$want")
		tests+=("$found")
	done
else
	tests=("${all[@]}")
fi
if [ ${#tests[@]} -eq 0 ]; then
	say "WARNING: no IGT test binaries found: nothing to run"
fi

genv=()
for e in ${GUEST_ENV:-}; do
	genv+=(-e "$e")
done

# The PCI guest's programs: PCI_TESTS, of those selected.
pci_tests=()
for want in $PCI_TESTS; do
	for t in "${tests[@]}"; do
		[ "$(basename "$t")" = "$want" ] && pci_tests+=("$t")
	done
done

# The Bochs guest's programs: BOCHS_TESTS, of those selected.
bochs_tests=()
for want in $BOCHS_TESTS; do
	for t in "${tests[@]}"; do
		[ "$(basename "$t")" = "$want" ] && bochs_tests+=("$t")
	done
done

# list_tests DIR BIN...: each BIN's "--list-subtests" output, stderr and
# exit status into DIR/NAME.list, .err and .rc, run here on the host with
# the guest's environment (the caller's lenv: GUEST_ENV and the lane's own
# words) and nothing else from ours; tools/igt-run.sh -l takes them instead
# of starting every program once more in the guest to list it (a few
# seconds a program on the debug kernel, which is mostly process start).
list_tests() {
	local dir=$1 t n e i vars=()
	shift
	for ((i = 1; i < ${#lenv[@]}; i += 2)); do
		e=${lenv[i]}
		if [[ $e == *=* ]]; then
			vars+=("$e")
		elif [ -n "${!e+x}" ]; then
			vars+=("$e=${!e}")
		fi
	done
	mkdir -p "$dir"
	for t in "$@"; do
		if [ ! -f "$t" ] || [ ! -x "$t" ]; then
			continue
		fi
		n=${t##*/}
		env -i PATH="$PATH" HOME=/root VM_RUN=1 "${vars[@]}" \
			timeout -k 5 60 "$t" --list-subtests </dev/null \
			>"$dir/$n.list" 2>"$dir/$n.err"
		echo $? >"$dir/$n.rc"
	done
}

# test_kernel KVER: build vseg for KVER, boot it, run the tests; leaves
# "PASSED FAILED SKIPPED" in build/check/KVER/counts and the kernel's name
# for the summary in build/check/KVER/label.
test_kernel() {
	local kver=$1 kp=0 kf=0 ks=0 out dkdir='' mver=$1 label=$1 build_args
	local kmod binds igt rc res what ign hits t
	local lane_tests=("${tests[@]}") qargs=${QEMU_ARGS:-} lenv=("${genv[@]}")
	say "==== $kver (kernel ${LANE[$kver]}/${#kernels[@]}) ===="
	out=$REPO/build/check/$kver
	rm -rf "$out"
	mkdir -p "$out"
	build_args=("$kver")
	# the debug kernel: built (or taken from its cache) first
	if [ "$kver" = debug ]; then
		if dkdir=$("$TOOLS/debug-kernel/build.sh"); then
			mver=$(cat "$dkdir/kver")
			label="debug ($mver)"
			build_args=(-K "$dkdir/src" "$mver")
			# (GUEST_ENV after it: its own VSEG_TEST_SCALE wins)
			lenv=(-e "VSEG_TEST_SCALE=$DEBUG_TEST_SCALE" "${genv[@]}")
		else
			say "debug: FAIL: the debug kernel build (tools/debug-kernel/build.sh)"
			echo "0 1 0" >"$out/counts"
			echo "$label" >"$out/label"
			return
		fi
	fi
	# the PCI guest: the stock 6.12 kernel with an ivshmem-plain device
	if [ "$kver" = pci ]; then
		mver=$PCI_KVER
		label="pci ($mver, ivshmem-plain BAR)"
		build_args=("$mver")
		lane_tests=("${pci_tests[@]}")
		qargs+=" $PCI_QEMU_ARGS"
		lenv+=(-e IGT_KMOD_OPTIONS=vseg:pci=1af4:1110)
	fi
	# the Bochs guest: the stock 6.12 kernel with a bochs-display
	if [ "$kver" = bochs ]; then
		mver=$BOCHS_KVER
		label="bochs ($mver, bochs-display)"
		build_args=("$mver")
		lane_tests=("${bochs_tests[@]}")
		qargs+=" $BOCHS_QEMU_ARGS"
		lenv+=(-e IGT_KMOD_OPTIONS=vseg:pci=1234:1111 --screendump)
	fi
	echo "$label" >"$out/label"
	if ! "$TOOLS/build-module.sh" "${build_args[@]}"; then
		say "$kver: FAIL: module build"
		kf=1
	elif [ ${#lane_tests[@]} -gt 0 ] || [ -n "$dkdir" ]; then
		kmod=$REPO/build/$mver/drivers/gpu/drm/vseg
		binds=()
		for t in "${lane_tests[@]}"; do
			case $t in /tmp/*|/run/*) binds+=(-b "$(dirname "$t")") ;; esac
		done
		list_tests "$out/lists" "${lane_tests[@]}"
		if [ -n "$dkdir" ]; then
			igt=()
			[ ${#tests[@]} -eq 0 ] ||
				igt=(-t "$DEBUG_SUBTEST_TIMEOUT" -m "$kmod" \
					-l "$out/lists" "${tests[@]}")
			"$TOOLS/vm-run.sh" --kernel "$dkdir/bzImage" \
				--modules "$dkdir/modroot" --append acpi=off \
				-t "$DEBUG_VM_TIMEOUT" -o "$out" "${binds[@]}" "${quiet[@]}" \
				"${lenv[@]}" \
				--qemu-args "${QEMU_ARGS:-}" -- \
				"$TOOLS/debug-kernel/guest-check.sh" -r "$out/igt-results" \
				-u "$kmod/tests/vseg_test.ko" \
				-H "$kmod/tests/vseg_ttm_hold.ko" -- "${igt[@]}"
		else
			"$TOOLS/vm-run.sh" -k "$mver" -t "$VM_TIMEOUT" -o "$out" "${binds[@]}" \
				"${lenv[@]}" \
				--qemu-args "$qargs" -- \
				"$TOOLS/igt-run.sh" -r "$out/igt-results" -t "$SUBTEST_TIMEOUT" \
				-m "$kmod" -l "$out/lists" "${lane_tests[@]}"
		fi
		rc=$?
		# a quiet guest's own lines: its console less the kernel's, and
		# less the passes and skips already shown as they came
		[ -z "$dkdir" ] || [ ${#quiet[@]} -eq 0 ] ||
			grep -av -e '^\[ *[0-9]*\.[0-9]*\]' \
				-e '^\[[0-9]*/[0-9]*\] \(PASS\|SKIP\) ' \
				"$out/console.log" 2>/dev/null
		res=$out/igt-results/results.txt
		if [ -f "$res" ]; then
			kp=$(grep -c '^PASS ' "$res")
			kf=$(grep -c '^FAIL ' "$res")
			ks=$(grep -c '^SKIP ' "$res")
		fi
		if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
			what=
			[ -s "$out/igt-results/running" ] &&
				what=" while running $(cat "$out/igt-results/running")"
			say "$kver: FAIL: the VM run failed$what (exit $rc; see $out/console.log)"
			kf=$((kf + 1))
		elif [ "$rc" = 1 ] && [ "$kf" = 0 ]; then
			say "$kver: FAIL: the test runner failed without a failed test"
			kf=$((kf + 1))
		fi
		if [ -f "$out/dmesg.txt" ]; then
			# the debug kernel announces kmemleak and lockdep at boot
			ign=${KLOG_EXTRA_IGNORE:-}
			[ -z "$dkdir" ] ||
				ign+="${ign:+|}kmemleak: Kernel memory leak detector initiali[sz]ed|RCU lockdep checking is enabled"
			if ! hits=$(KLOG_EXTRA_IGNORE=$ign "$TOOLS/klog-check.sh" "$out/dmesg.txt"); then
				say "$kver: FAIL: kernel log splats in $out/dmesg.txt:"
				printf '%s\n' "$hits" | head -n 60
				kf=$((kf + 1))
			fi
		fi
	fi
	[ -n "$dkdir" ] || [ "$kver" = pci ] || [ "$kver" = bochs ] || pm_sleep "$kver" "$out/igt-results/results.txt"
	echo "$kp $kf $ks" >"$out/counts"
}

# pm_sleep KVER RESULTS: vseg_pm's system-sleep subtests, which skip in the
# run above (its 9p root does not survive a system transition), from tmpfs,
# a guest each (tools/pm-sleep.sh); a subtest the run above skipped and
# this one ran counts as what it did here. Updates kp, kf, ks.
pm_sleep() {
	local kver=$1 res=$2 line t verdict
	[[ " ${tests[*]} " == *"/vseg_pm "* ]] || return 0
	while IFS= read -r line; do
		echo "$line"
		verdict=$(sed -n 's/^pm-sleep: [^ ]*: \(PASS\|FAIL\|SKIP\) \([^ :]*\).*/\1 \2/p' <<<"$line")
		[ -n "$verdict" ] || continue
		t=${verdict#* }
		verdict=${verdict%% *}
		[ "$verdict" = SKIP ] && continue
		if grep -q "^SKIP vseg_pm/$t " "$res" 2>/dev/null; then
			ks=$((ks - 1))
		elif grep -q "^PASS vseg_pm/$t " "$res" 2>/dev/null; then
			[ "$verdict" = PASS ] && continue
			kp=$((kp - 1))
		fi
		if [ "$verdict" = PASS ]; then
			kp=$((kp + 1))
		else
			kf=$((kf + 1))
		fi
	done < <("$TOOLS/pm-sleep.sh" "$kver" 2>&1)
}

# A QEMU TCG guest keeps about one core busy: with two or more cores the
# debug kernel (built if needed, then its slower run) goes alongside the
# others, its output shown when it is done.
# follow_debug PID: while PID (the debug lane) runs, print its log and
# its guest's IGT results as they come, each line prefixed "[debug] " (a
# result once, though vm-run rewrites the console file at the end)
follow_debug() {
	local pid=$1
	tail -q -n +1 -F --pid="$pid" build/check/debug.log 2>/dev/null |
		grep --line-buffered -av '^\[[0-9]*/[0-9]*\] \(PASS\|SKIP\) ' |
		sed -u 's/^/[debug] /' &
	tail -q -n +1 -F --pid="$pid" build/check/debug/console.log 2>/dev/null |
		awk 'match($0, /\[[0-9]+\/[0-9]+\] (PASS|FAIL|SKIP) [^ ]+ \([0-9.]+s\)/) {
			r = substr($0, RSTART, RLENGTH); k = substr(r, 2) + 0
			if (k > last) { last = k; print "[debug] " r; fflush() }
		}' &
}

declare -A LANE
for i in "${!kernels[@]}"; do
	LANE[${kernels[$i]}]=$((i + 1))
done
quiet=()
debug_pid=
if [ "${kernels[-1]}" = debug ] && [ ${#kernels[@]} -gt 1 ] &&
	[ "${DEBUG_PARALLEL:-1}" != 0 ] && [ "$(nproc 2>/dev/null || echo 1)" -gt 1 ]; then
	quiet=(-q)
	mkdir -p build/check
	rm -rf build/check/debug.log build/check/debug
	: >build/check/debug.log
	test_kernel debug >>build/check/debug.log 2>&1 &
	debug_pid=$!
	echo "check: the debug kernel runs alongside: its lines are prefixed [debug]" \
		"(log: build/check/debug.log, guest console: build/check/debug/console.log)"
	follow_debug "$debug_pid"
fi
for kver in "${kernels[@]}"; do
	[ -n "$debug_pid" ] && [ "$kver" = debug ] && continue
	test_kernel "$kver"
done
if [ -n "$debug_pid" ]; then
	say "waiting for the debug kernel"
	wait "$debug_pid"
	# the followers end within a second of it
	wait
fi

declare -A summary label
for kver in "${kernels[@]}"; do
	read -r kp kf ks <"build/check/$kver/counts" 2>/dev/null ||
		{ kp=0 kf=1 ks=0; say "$kver: FAIL: no result"; }
	label[$kver]=$(cat "build/check/$kver/label" 2>/dev/null || echo "$kver")
	summary[$kver]="$kp passed, $kf failed, $ks skipped"
	P=$((P + kp)) F=$((F + kf)) S=$((S + ks))
done

# The failures again, last, with the end of each one's output: CI keeps
# only the tail of this run's output.
for kver in "${kernels[@]}"; do
	res=build/check/$kver/igt-results
	grep -E '^(FAIL|CRASH|TIMEOUT)' "$res/results.txt" 2>/dev/null |
	while read -r st name _; do
		say "${label[$kver]}: $st $name"
		log=$res/$name.log
		[ -f "$log" ] && tail -n 20 "$log" | sed 's/^/    /'
	done
done
say "==== summary ===="
for kver in "${kernels[@]}"; do
	say "${label[$kver]}: ${summary[$kver]}"
done
finish
