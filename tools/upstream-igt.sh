#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "make check-upstream-igt": the vseg IGT tests built against upstream IGT's
# library instead of igt-tests/lib's stand-in, and run by upstream's
# igt_runner in a QEMU guest per kernel, with vseg.ko installed under the
# guest's /lib/modules (upstream's igt_kmod_load() loads modules by name).
# Not part of "make check". The last line printed is
# "N passed, N failed, N skipped" over all kernels.
#
#  1. Upstream IGT's source: $UPSTREAM_IGT_SRC, else the first tree found
#     in $VSEG_CACHE/upstream-igt/src, /usr/src/igt-gpu-tools*; if none and
#     $UPSTREAM_IGT_GIT is set, a clone of it ($UPSTREAM_IGT_REF, v2.2) into
#     $VSEG_CACHE/upstream-igt/src. Nothing is fetched otherwise.
#  2. Its library and runner built with meson/ninja outside the tree, in
#     $UPSTREAM_IGT_BUILD (default $VSEG_CACHE/upstream-igt/build-<version>-<hash
#     of the source path>); only lib/libigt.so and runner/igt_{runner,results}.
#  3. The library self-tests (igt-tests/lib/tests) built against it and
#     checked on the host by the same run-selftests.sh as the stand-in's:
#     one result, "selftests".
#  4. The tests (igt-tests/vseg_*.c, or TESTS) and the vseg helpers
#     (igt-tests/lib/igt_vseg*.c, copied apart from the stand-in's headers)
#     compiled with the flags upstream compiles its own tests with, into
#     build/upstream-igt/tests/ with a test-list.txt. A test that does not
#     build is one failed result, "BIN/build". Upstream's own generic tests
#     of UPSTREAM_GENERIC_TESTS (default: kms_addfb_basic kms_atomic
#     kms_flip kms_vblank kms_getfb kms_prop_blob kms_plane
#     kms_pipe_crc_basic kms_cursor_crc core_auth core_getclient
#     core_getstats core_getversion core_setmaster dumb_buffer
#     syncobj_timeline core_hotunplug; set it empty for none) built in
#     $UPSTREAM_IGT_BUILD; one that does not build is one failed result,
#     "NAME/build". Of those, igt_runner runs the subtests that
#     tools/upstream-igt-subtests.txt names (whole tests otherwise). Their TEST/SUBTEST
#     documentation checked against what they list by upstream's
#     scripts/igt_doc.py --check-testlist (igt-tests/vseg_test_config.json):
#     one result, "testplan".
#  5. Per kernel: vseg.ko (tools/build-module.sh), a module layer (vseg.ko +
#     depmod's files, build/upstream-igt/modules/KVER) that the guest binds
#     over /lib/modules/KVER, and tools/upstream-igt-guest.sh in
#     tools/vm-run.sh: igt_runner --per-test-timeout SUBTEST_TIMEOUT
#     --prune-mode keep-subtests; then, in the same guest, igt_runner once
#     more on upstream's generic tests with IGT_FORCE_DRIVER=vseg (they
#     open vseg's node through drm_open_driver(DRIVER_ANY)), vseg loaded
#     with UPSTREAM_MODULE_OPTIONS (default "fbdev=0": no fbcon on a CRTC).
#     Results: igt_runner's results.json. pass
#     is passed, skip and notrun skipped, anything else (fail, dmesg-warn,
#     dmesg-fail, warn, crash, timeout, abort, incomplete) failed. A splat
#     in the guest's whole kernel log (tools/klog-check.sh), a failed module
#     build or a dead guest each count as one more failure.
#
# Environment (the Makefile passes these): UPSTREAM_IGT_SRC, UPSTREAM_IGT_BUILD,
# UPSTREAM_IGT_GIT, UPSTREAM_IGT_REF, UPSTREAM_GENERIC_TESTS,
# UPSTREAM_MODULE_OPTIONS, KERNELS (default tools/kernels.sh; the
# name "debug" is the debug kernel of tools/debug-kernel/, built if needed,
# with DEBUG_SUBTEST_TIMEOUT and DEBUG_VM_TIMEOUT), TESTS, VM_TIMEOUT (3600 s
# per kernel), SUBTEST_TIMEOUT (120 s), QEMU_ARGS, SKIP_DEPS=1, VSEG_CACHE
# (/var/cache/vseg).
# Output: build/check-upstream-igt/KVER/{console.log,dmesg.txt,results/,
# results-generic/,runner.log,runner-generic.log,results.txt},
# build/check-upstream-igt/summary.
#
# usage: tools/upstream-igt.sh [--build-only]

USAGE_LINES=3,62
PROG=check-upstream-igt
# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO" || exit 1

VSEG_CACHE=${VSEG_CACHE:-/var/cache/vseg}
VM_TIMEOUT=${VM_TIMEOUT:-3600}
SUBTEST_TIMEOUT=${SUBTEST_TIMEOUT:-120}
MODULE_OPTIONS=${UPSTREAM_MODULE_OPTIONS-fbdev=0}
BUILD_ONLY=0
case ${1:-} in
--build-only) BUILD_ONLY=1 ;;
'') ;;
*) usage ;;
esac

OUT=$REPO/build/check-upstream-igt
UB=$REPO/build/upstream-igt
P=0 F=0 S=0

finish() {
	mkdir -p "$OUT"
	echo "$P $F $S" >"$OUT/summary"
	echo "$P passed, $F failed, $S skipped"
	[ "$F" = 0 ]
	exit
}
fatal() {
	say "FAIL: $*"
	F=$((F + 1))
	finish
}

mkdir -p build
exec 9>build/check-upstream-igt.lock
if ! flock -n 9; then
	say "waiting for another make check-upstream-igt in this tree"
	flock 9
fi

if [ "${SKIP_DEPS:-0}" != 1 ]; then
	DEBUG_TIER=0 "$TOOLS/install-deps.sh" --upstream-igt ||
		fatal "tools/install-deps.sh --upstream-igt failed"
fi

# --- 1. the source ---------------------------------------------------------
is_igt_tree() {
	[ -f "$1/meson.build" ] && [ -f "$1/lib/igt_core.c" ] &&
		grep -q "project('igt-gpu-tools'" "$1/meson.build"
}

SRC=${UPSTREAM_IGT_SRC:-}
if [ -n "$SRC" ]; then
	is_igt_tree "$SRC" || fatal "UPSTREAM_IGT_SRC=$SRC is not an igt-gpu-tools source tree"
else
	for d in "$VSEG_CACHE/upstream-igt/src" /usr/src/igt-gpu-tools*; do
		if is_igt_tree "$d"; then
			SRC=$d
			break
		fi
	done
fi
if [ -z "$SRC" ] && [ -n "${UPSTREAM_IGT_GIT:-}" ]; then
	SRC=$VSEG_CACHE/upstream-igt/src
	say "cloning $UPSTREAM_IGT_GIT (${UPSTREAM_IGT_REF:-v2.2}) into $SRC"
	mkdir -p "$(dirname "$SRC")"
	rm -rf "$SRC.tmp"
	if ! git clone -q --depth 1 --branch "${UPSTREAM_IGT_REF:-v2.2}" \
		"$UPSTREAM_IGT_GIT" "$SRC.tmp" || ! mv "$SRC.tmp" "$SRC"; then
		fatal "git clone of $UPSTREAM_IGT_GIT failed"
	fi
fi
[ -n "$SRC" ] || fatal "no upstream IGT source: set UPSTREAM_IGT_SRC to an igt-gpu-tools tree (Documentation/gpu/vseg-testing.rst), or UPSTREAM_IGT_GIT to a git URL to clone"
SRC=$(cd "$SRC" && pwd -P)
VERSION=$(sed -n "s/^[[:space:]]*version *: *'\([^']*\)'.*/\1/p" "$SRC/meson.build" | head -n 1)
say "upstream IGT ${VERSION:-?} in $SRC"

# --- 2. its library and runner --------------------------------------------
BLD=${UPSTREAM_IGT_BUILD:-$VSEG_CACHE/upstream-igt/build-${VERSION:-x}-$(printf '%s' "$SRC" | sha1sum | cut -c1-8)}
mkdir -p "$BLD" || fatal "cannot create $BLD"
BLD=$(cd "$BLD" && pwd -P)
if [ ! -f "$BLD/build.ninja" ]; then
	say "configuring in $BLD"
	# igt_runner is built only with the tests configured (none is built)
	if ! meson setup "$BLD" "$SRC" -Dtests=enabled -Drunner=enabled \
		-Doverlay=disabled -Dchamelium=disabled -Dman=disabled \
		-Ddocs=disabled -Dtestplan=disabled -Dvalgrind=disabled \
		-Doping=disabled >"$BLD.setup.log" 2>&1; then
		tail -n 30 "$BLD.setup.log"
		rm -f "$BLD/build.ninja"
		fatal "meson setup failed (log: $BLD.setup.log)"
	fi
fi
say "building lib/libigt.so and runner/igt_runner in $BLD"
if ! ninja -C "$BLD" lib/libigt.so.0 runner/igt_runner runner/igt_results \
	>"$BLD.ninja.log" 2>&1; then
	tail -n 30 "$BLD.ninja.log"
	fatal "building upstream IGT failed (log: $BLD.ninja.log)"
fi

# The flags upstream compiles and links its own tests with.
ref=tests/core_auth
CFLAGS_UP=$(python3 - "$BLD" "$ref.c" <<'EOF'
import json, shlex, sys
bld, ref = sys.argv[1], sys.argv[2]
for e in json.load(open(bld + "/compile_commands.json")):
    if e["file"].endswith(ref):
        args = shlex.split(e["command"])[1:]
        out, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a in ("-o", "-MQ", "-MF", "-c"):
                skip = True
                continue
            if a in ("-MD",) or a.endswith(".c") or a.startswith("-fdiagnostics-color"):
                continue
            out.append(a)
        print(shlex.join(out))
        break
EOF
)
# shellcheck disable=SC2016 # "$ORIGIN" is the linker's, not ours
LDFLAGS_UP=$(ninja -C "$BLD" -t commands "$ref" 2>/dev/null | tail -n 1 |
	python3 -c '
import shlex, sys
args = shlex.split(sys.stdin.read())[1:]
out, skip = [], False
for a in args:
    if skip:
        skip = False
        continue
    if a == "-o":
        skip = True
        continue
    if a.endswith(".o") or "-rpath,$ORIGIN" in a:
        continue
    out.append(a)
print(shlex.join(out))')

# Upstream's generic tests, run against vseg after vseg's own programs
# (upstream's KMS and core tests, the issue's list; see
# tools/upstream-igt-subtests.txt for the subtests run of each)
# (core_hotunplug last: it unbinds and rebinds vseg)
GENERIC_DEFAULT="kms_addfb_basic kms_atomic kms_flip kms_vblank kms_getfb
	kms_prop_blob kms_plane kms_pipe_crc_basic kms_cursor_crc core_auth
	core_getclient core_getstats core_getversion core_setmaster
	dumb_buffer syncobj_timeline core_hotunplug"
read -r -d '' -a generic_req <<<"${UPSTREAM_GENERIC_TESTS-$GENERIC_DEFAULT}"
generic=()
for n in "${generic_req[@]}"; do
	if ninja -C "$BLD" "tests/$n" >>"$BLD.ninja.log" 2>&1 &&
		[ -x "$BLD/tests/$n" ]; then
		generic+=("$n")
	else
		say "FAIL $n/build: upstream's tests/$n does not build (log: $BLD.ninja.log)"
		F=$((F + 1))
	fi
done

if [ -z "$CFLAGS_UP" ] || [ -z "$LDFLAGS_UP" ]; then
	fatal "cannot find how upstream builds $ref in $BLD"
fi

# cc_up OUT SRC... : compile and link against upstream's library. The
# relative include paths of upstream's flags are relative to $BLD.
cc_up() {
	local out=$1 src o objs=()
	shift
	mkdir -p "$UB/obj"
	for src in "$@"; do
		case $src in *.o) objs+=("$src"); continue ;; esac
		o=$UB/obj/$(basename "$src" .c).o
		(cd "$BLD" && eval "cc $CFLAGS_UP -I\"$UB/src\" \
			-I\"$REPO/include/uapi/drm\" -c -o \"$o\" \"$src\"") || return 1
		objs+=("$o")
	done
	(cd "$BLD" && eval "cc -o \"$out\" $(printf '"%s" ' "${objs[@]}") \
		$LDFLAGS_UP -Wl,-rpath,\"$BLD/lib\"")
}

# The helpers, apart from the stand-in's igt.h, igt_core.h...
rm -rf "$UB/src" "$UB/obj" "$UB/tests" "$UB/lib-tests" "$UB/generic"
mkdir -p "$UB/src" "$UB/tests" "$UB/lib-tests"
# upstream's binaries find libigt.so through their $ORIGIN, links or not
if [ ${#generic[@]} -gt 0 ]; then
	mkdir -p "$UB/generic"
	for n in "${generic[@]}"; do
		ln -s "$BLD/tests/$n" "$UB/generic/$n"
	done
	{
		echo TESTLIST
		printf '%s\n' "${generic[@]}" | tr '\n' ' '
		printf '\nEND TESTLIST\n'
	} >"$UB/generic/test-list.txt"	# what igt_runner runs of them, in this order: the subtests
	# tools/upstream-igt-subtests.txt names, else the whole test
	for n in "${generic[@]}"; do
		if grep -q "^igt@$n@" "$TOOLS/upstream-igt-subtests.txt"; then
			grep "^igt@$n@" "$TOOLS/upstream-igt-subtests.txt"
		else
			echo "igt@$n"
		fi
	done >"$UB/generic/run-list.txt"
fi
cp igt-tests/lib/igt_vseg*.[ch] "$UB/src/"
helpers=()
for h in "$UB"/src/igt_vseg*.c; do
	# as a file of upstream's lib/ would be: a log domain of its name
	if ! (cd "$BLD" && eval "cc $CFLAGS_UP -I\"$UB/src\" \
		-I\"$REPO/include/uapi/drm\" '-DIGT_LOG_DOMAIN=\"$(basename "$h" .c)\"' \
		-c -o \"$UB/src/$(basename "$h" .c).o\" \"$h\"") \
		>>"$UB/build.log" 2>&1; then
		cat "$UB/build.log"
		fatal "the vseg helper $(basename "$h") does not build against upstream IGT"
	fi
	helpers+=("$UB/src/$(basename "$h" .c).o")
done

# --- 3. the library self-tests --------------------------------------------
say "library self-tests against upstream IGT"
st_ok=1
for t in igt-tests/lib/tests/*.c; do
	n=$(basename "$t" .c)
	cc_up "$UB/lib-tests/$n" "$REPO/$t" "${helpers[@]}" >>"$UB/build.log" 2>&1 ||
		{ st_ok=0; say "self-test $n does not build against upstream IGT"; }
done
if [ "$st_ok" = 1 ] && igt-tests/lib/tests/run-selftests.sh "$UB/lib-tests" >"$UB/selftests.log" 2>&1; then
	say "PASS selftests ($(tail -n 1 "$UB/selftests.log"))"
	P=$((P + 1))
else
	say "FAIL selftests: the stand-in's self-tests do not pass against upstream IGT"
	tail -n 40 "$UB/selftests.log" 2>/dev/null
	F=$((F + 1))
fi

# --- 4. the tests ----------------------------------------------------------
srcs=()
if [ -n "${TESTS:-}" ]; then
	for t in $TESTS; do
		t=$(basename "$t")
		srcs+=("igt-tests/${t%.c}.c")
	done
else
	for t in igt-tests/vseg_*.c; do
		srcs+=("$t")
	done
fi
built=() warned=()
for t in "${srcs[@]}"; do
	n=$(basename "$t" .c)
	if [ ! -f "$t" ]; then
		say "FAIL $n/build: no $t"
		F=$((F + 1))
		continue
	fi
	if cc_up "$UB/tests/$n" "$REPO/$t" "${helpers[@]}" >"$UB/obj.$n.log" 2>&1; then
		built+=("$n")
		grep -q 'warning:' "$UB/obj.$n.log" && warned+=("$n")
	else
		say "FAIL $n/build: it does not build against upstream IGT:"
		grep -E 'error|warning' "$UB/obj.$n.log" | head -n 10
		F=$((F + 1))
	fi
done
{
	echo TESTLIST
	printf '%s\n' "${built[@]}" | tr '\n' ' '
	printf '\nEND TESTLIST\n'
} >"$UB/tests/test-list.txt"
say "built ${#built[@]} of ${#srcs[@]} tests against upstream IGT"
[ ${#warned[@]} -eq 0 ] ||
	say "with warnings: ${warned[*]} (build/upstream-igt/obj.NAME.log)"

# The TEST/SUBTEST documentation against what the binaries list, with
# upstream's own checker.
if [ -f igt-tests/vseg_test_config.json ] && [ -f "$SRC/scripts/igt_doc.py" ]; then
	for n in "${built[@]}"; do
		"$UB/tests/$n" --show-testlist >"$UB/tests/$n.testlist" 2>/dev/null
	done
	if python3 "$SRC/scripts/igt_doc.py" --config igt-tests/vseg_test_config.json \
		--check-testlist --igt-build-path "$UB" >"$UB/testplan.log" 2>&1; then
		say "PASS testplan (scripts/igt_doc.py --check-testlist)"
		P=$((P + 1))
	else
		say "FAIL testplan: scripts/igt_doc.py --check-testlist:"
		head -n 40 "$UB/testplan.log"
		F=$((F + 1))
	fi
fi

if [ "$BUILD_ONLY" = 1 ]; then
	finish
fi
[ ${#built[@]} -gt 0 ] || [ ${#generic[@]} -gt 0 ] || finish

# --- 5. per kernel: module layer, guest run, results -----------------------
# Kernel warnings that say the emulated machine was slow, not that the test
# or vseg did something wrong: a dmesg-warn with nothing else is a pass (as
# igt_runner's own list of such lines, e.g. "hpet: lost rtc interrupts"),
# and 7.x's once-per-boot notice when anything opens debugfs's tracing
# directory (it lands on whichever subtest runs then).
NOISE='hrtimer: interrupt took [0-9]+ ns|NOTICE: Automounting of tracing to debugfs is deprecated'

# module_layer KVER KO MODDIR: the directory whose files the guest adds to
# its /lib/modules/KVER, whose modules are those of MODDIR
module_layer() {
	local kver=$1 ko=$2 moddir=$3 tmp e
	local base=$UB/modules/$kver
	local layer=$base/lib/modules/$kver
	if [ -f "$layer/modules.dep" ] && [ "$layer/modules.dep" -nt "$ko" ] &&
		[ "$layer/modules.dep" -nt "$moddir/modules.dep" ]; then
		echo "$layer"
		return 0
	fi
	rm -rf "$base"
	tmp=$base/lib/modules/$kver
	mkdir -p "$tmp/vseg" || return 1
	cp "$ko" "$tmp/vseg/vseg.ko" || return 1
	for e in "$moddir"/*; do
		case $(basename "$e") in
		build|source|modules.*) ;;
		*) [ -d "$e" ] && ln -s "$e" "$tmp/$(basename "$e")" ;;
		esac
	done
	for e in modules.order modules.builtin modules.builtin.modinfo; do
		[ -f "$moddir/$e" ] && cp "$moddir/$e" "$tmp/"
	done
	depmod -b "$base" "$kver" || return 1
	# the original directories come from the lower layer in the guest
	find "$tmp" -maxdepth 1 -type l -delete
	echo "$layer"
}

read -r -a kernels <<<"${KERNELS:-$("$TOOLS/kernels.sh" | tr '\n' ' ')}"
[ ${#kernels[@]} -gt 0 ] || fatal "no supported kernel installed"
declare -A summary
for kver in "${kernels[@]}"; do
	kp=0 kf=0 ks=0
	out=$OUT/$kver
	rm -rf "$out"
	mkdir -p "$out"
	say "==== $kver ===="
	# the debug kernel (tools/debug-kernel/), as make check boots it
	mver=$kver build_args=("$kver") moddir=/lib/modules/$kver
	vm_args=(-k "$kver" -t "$VM_TIMEOUT") tmo=$SUBTEST_TIMEOUT
	# a 7.3 kept in the cache (tools/trixie-kernel.sh): its module tree
	if [ ! -d "$moddir" ] &&
		read -r _ m < <("$TOOLS/trixie-kernel.sh" --image "$kver" 2>/dev/null); then
		moddir=$m
	fi
	if [ "$kver" = debug ]; then
		if ! dkdir=$("$TOOLS/debug-kernel/build.sh"); then
			say "debug: FAIL: the debug kernel build (tools/debug-kernel/build.sh)"
			summary[$kver]="0 passed, 1 failed, 0 skipped"
			F=$((F + 1))
			continue
		fi
		mver=$(cat "$dkdir/kver")
		build_args=(-K "$dkdir/src" "$mver")
		moddir=$dkdir/modroot/lib/modules/$mver
		tmo=${DEBUG_SUBTEST_TIMEOUT:-$((3 * SUBTEST_TIMEOUT))}
		vm_args=(--kernel "$dkdir/bzImage" --modules "$dkdir/modroot"
			 --append acpi=off -t "${DEBUG_VM_TIMEOUT:-$((2 * VM_TIMEOUT))}")
	fi
	if ! "$TOOLS/build-module.sh" "${build_args[@]}"; then
		say "$kver: FAIL: module build"
		summary[$kver]="0 passed, 1 failed, 0 skipped"
		F=$((F + 1))
		continue
	fi
	ko=$REPO/build/$mver/drivers/gpu/drm/vseg/vseg.ko
	if ! layer=$(module_layer "$mver" "$ko" "$moddir"); then
		say "$kver: FAIL: depmod of the module layer"
		summary[$kver]="0 passed, 1 failed, 0 skipped"
		F=$((F + 1))
		continue
	fi
	gargs=()
	[ ${#generic[@]} -eq 0 ] ||
		gargs=(-g "$UB/generic" -G "$out/results-generic"
		       -L "$UB/generic/run-list.txt" -m "$MODULE_OPTIONS")
	"$TOOLS/vm-run.sh" "${vm_args[@]}" -o "$out" -q \
		--qemu-args "${QEMU_ARGS:-}" -- \
		"$TOOLS/upstream-igt-guest.sh" -l "$layer" -r "$BLD/runner/igt_runner" \
		-t "$tmo" -o "$out/results" "${gargs[@]}" "$UB/tests"
	rc=$?
	# vseg's programs (none built: no results of theirs wanted), then
	# upstream's generic tests
	jsons=() missing=()
	[ ${#built[@]} -eq 0 ] || jsons+=("$out/results/results.json")
	[ ${#generic[@]} -eq 0 ] || jsons+=("$out/results-generic/results.json")
	for j in "${jsons[@]}"; do
		[ -f "$j" ] || missing+=("$j")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		python3 - "$NOISE" "${jsons[@]}" >"$out/results.txt" <<'EOF'
import json, re, sys
noise = re.compile(sys.argv[1])
res = {"tests": {}}
for path in sys.argv[2:]:
    res["tests"].update(json.load(open(path))["tests"])
for name in sorted(res["tests"]):
    t = res["tests"][name]
    r = t.get("result", "?")
    # kernel warnings of the emulator's timing only: not the test's
    warns = [l for l in t.get("dmesg-warnings", "").splitlines() if l.strip()]
    if r in ("dmesg-warn", "dmesg-fail") and warns and \
            all(noise.search(l) for l in warns):
        print("NOTE %s %s: only %s" % (name, r, "; ".join(warns)))
        r = "pass" if r == "dmesg-warn" else "fail"
    st = "PASS" if r == "pass" else "SKIP" if r in ("skip", "notrun") else "FAIL"
    print("%s %s %s (%ss)" % (st, name, r, t.get("time", {}).get("end", 0) -
                              t.get("time", {}).get("start", 0)))
    if st == "FAIL":
        for key in ("out", "err", "dmesg-warnings"):
            text = t.get(key, "")
            if text:
                print("  ---- %s ----" % key)
                for line in text.splitlines()[-40:]:
                    print("  " + line)
EOF
		kp=$(grep -c '^PASS ' "$out/results.txt")
		kf=$(grep -c '^FAIL ' "$out/results.txt")
		ks=$(grep -c '^SKIP ' "$out/results.txt")
		grep -v '^PASS \|^SKIP \|^NOTE ' "$out/results.txt" | head -n 400
		grep '^NOTE ' "$out/results.txt" | sed 's/^/check-upstream-igt: /' 
		# upstream's generic tests on their own, skips named
		if [ ${#generic[@]} -gt 0 ]; then
			re=$(printf '%s|' "${generic[@]}")
			re="^(PASS|FAIL|SKIP) igt@(${re%|})@"
			say "$kver: upstream's ${generic[*]}:" \
				"$(grep -cE "$re" "$out/results.txt") results," \
				"$(grep -E "$re" "$out/results.txt" | grep -c '^PASS ') passed," \
				"$(grep -E "$re" "$out/results.txt" | grep -c '^FAIL ') failed," \
				"$(grep -E "$re" "$out/results.txt" | grep -c '^SKIP ') skipped"
		fi
	else
		say "$kver: FAIL: igt_runner left no ${missing[*]} (exit $rc; see $out/console.log, $out/runner.log, $out/runner-generic.log)"
		tail -n 30 "$out/runner.log" "$out/runner-generic.log" 2>/dev/null
		kf=$((kf + 1))
	fi
	if [ "$rc" != 0 ]; then
		say "$kver: FAIL: the guest run failed (exit $rc; see $out/console.log)"
		kf=$((kf + 1))
	fi
	ign=${KLOG_EXTRA_IGNORE:-}
	# the debug kernel announces kmemleak and lockdep at boot
	[ "$kver" != debug ] ||
		ign+="${ign:+|}kmemleak: Kernel memory leak detector initiali[sz]ed|RCU lockdep checking is enabled"
	if [ -f "$out/dmesg.txt" ] &&
		! hits=$(KLOG_EXTRA_IGNORE=$ign "$TOOLS/klog-check.sh" "$out/dmesg.txt"); then
		say "$kver: FAIL: kernel log splats in $out/dmesg.txt:"
		printf '%s\n' "$hits" | head -n 60
		kf=$((kf + 1))
	fi
	summary[$kver]="$kp passed, $kf failed, $ks skipped"
	say "$kver: ${summary[$kver]}"
	P=$((P + kp)) F=$((F + kf)) S=$((S + ks))
done

say "==== summary (upstream IGT ${VERSION:-?}, igt_runner) ===="
for kver in "${kernels[@]}"; do
	say "$kver: ${summary[$kver]:-no result}"
done
finish
