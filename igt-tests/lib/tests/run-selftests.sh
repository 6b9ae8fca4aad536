#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Check the IGT library's protocol (what igt_runner parses) and exit codes
# with the self-test binaries. Usage: run-selftests.sh <dir with binaries>
#
# Copyright (c) 2026 The vseg authors

set -u
dir=${1:?usage: $0 <build dir>}
t=$dir/igt_selftest
s=$dir/igt_selftest_simple
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

# run <expected rc> <args...>: output in $tmp/out, $tmp/err
run() {
	local want=$1 rc
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	checks=$((checks + 1))
	if [ "$rc" != "$want" ]; then
		echo "FAIL: '$*' exited $rc, expected $want"
		sed 's/^/  out: /' "$tmp/out" | head -20
		sed 's/^/  err: /' "$tmp/err" | head -20
		fails=$((fails + 1))
	fi
}

# has <file> <fixed string>
has() {
	checks=$((checks + 1))
	if ! grep -qF -- "$2" "$tmp/$1"; then
		echo "FAIL: $1 lacks '$2'"
		sed "s/^/  $1: /" "$tmp/$1" | head -30
		fails=$((fails + 1))
	fi
}

lacks() {
	checks=$((checks + 1))
	if grep -qF -- "$2" "$tmp/$1"; then
		echo "FAIL: $1 has '$2'"
		fails=$((fails + 1))
	fi
}

run 0 "$t" --list-subtests
checks=$((checks + 1))
want="pass skip fail-assert fail-assert-u64 fail-errno formatted-7 dyn-mixed dyn-pass dyn-skip dyn-none dyn-container group-skipped after-group group-failed fork fork-fail fd thread-fail crash child-left"
if [ "$(tr '\n' ' ' <"$tmp/out" | sed 's/ $//')" != "$want" ]; then
	echo "FAIL: --list-subtests printed:"; cat "$tmp/out"; fails=$((fails + 1))
fi
lacks out "IGT-Version"

# The first failure's exit code: an assertion's 98 before the crash's 139.
run 98 "$t"
checks=$((checks + 1))
head -1 "$tmp/out" | grep -q '^IGT-Version: [0-9.]*-[^ ]* (x86_64) (Linux: ' ||
	{ echo "FAIL: first line: $(head -1 "$tmp/out")"; fails=$((fails + 1)); }
for r in "pass: SUCCESS" "skip: SKIP" "fail-assert: FAIL" "fail-assert-u64: FAIL" \
	 "fail-errno: FAIL" "formatted-7: SUCCESS" "dyn-mixed: FAIL" \
	 "dyn-pass: SUCCESS" "dyn-skip: SKIP" "dyn-none: SKIP" \
	 "group-skipped: SKIP" "after-group: SUCCESS" "group-failed: SUCCESS" \
	 "fork: SUCCESS" "fork-fail: FAIL" "fd: FAIL" "dyn-container: SUCCESS" \
	 "thread-fail: FAIL" "crash: CRASH" "child-left: SUCCESS"; do
	has out "Subtest $r ("
done
has out "Starting subtest: pass"
has out "Starting dynamic subtest: two-fails"
has out "Dynamic subtest one: SUCCESS ("
has out "Dynamic subtest two-fails: FAIL ("
has out "Dynamic subtest three: SKIP ("
has out "final fixture runs"
has err "Test assertion failure function helper_assert, file "
has err "igt_selftest.c:19:"
has err "Failed assertion: a == b"
has err "error: 1 != 2"
has err "error: 0x100000000 != 0x200000000"
has err "Last errno: 22, Invalid argument"
has err "extra info"
has err "file descriptor -1 failed"
lacks err "WARNING: Last errno"

run 0 "$t" --run-subtest pass
has out "Subtest pass: SUCCESS"
lacks out "Subtest skip"
run 77 "$t" --run-subtest skip
has out "value is 42"
run 98 "$t" --run-subtest 'fail-*'
has out "Subtest fail-assert: FAIL"
has out "Subtest fail-errno: FAIL"
lacks out "Subtest pass"
run 0 "$t" --run-subtest 'pass,skip'
run 139 "$t" --run-subtest '*,!fail*,!dyn-mixed,!fork-fail,!fd,!thread-fail'
run 0 "$t" --run-subtest '*,!fail*,!dyn-mixed,!fork-fail,!fd,!thread-fail,!crash'
run 79 "$t" --run-subtest no-such-subtest
has err "Unknown subtest: no-such-subtest"
run 79 "$t" --no-such-option
run 0 "$t" --help
has out "--run-subtest"
run 0 "$t" --run-subtest dyn-mixed --dynamic-subtest one
has out "Dynamic subtest one: SUCCESS"
lacks out "two-fails"
has out "Subtest dyn-mixed: SUCCESS"
run 98 "$t" --run-subtest dyn-mixed --dynamic-subtest 'two-*'
run 77 "$t" --run-subtest dyn-mixed --dynamic-subtest three
run 77 "$t" --run-subtest dyn-skip
run 0 "$t" --run-subtest dyn-pass
has out "Dynamic subtest part-2: SUCCESS"
run 77 "$t" --run-subtest group-skipped
has out "group fixture skips"
run 0 "$t" --run-subtest group-failed
has out "group fixture passed"
SELFTEST_FIXTURE_FAIL=1 run 98 "$t" --run-subtest group-failed
has err "error: 0x1 != 0x2"
has out "Subtest group-failed: FAIL"
lacks out "group fixture passed"
# As upstream, a failed fixture fails the run even if its subtests are not run.
SELFTEST_FIXTURE_FAIL=1 run 98 "$t" --run-subtest pass
has out "Subtest pass: SUCCESS"
run 0 "$t" --run-subtest after-group
run 0 "$t" --run-subtest fork
run 98 "$t" --run-subtest fork-fail
has out "child 1 failed with exit status 98"
# --describe takes its pattern after '=' only (an optional argument).
run 0 "$t" --describe=pass
has out "SUB pass "
has out "A subtest that passes."
lacks out "SUB skip"
run 0 "$t" --describe
has out "SUB skip "
has out "NO DOCUMENTATION!"
run 0 "$t" --help-description
has out "Self-test of vseg's IGT library."
IGT_SENTINEL_ON_STDERR=1 run 0 "$t" --run-subtest pass
has err "Subtest pass: SUCCESS"
run 77 "$t" --run-subtest dyn-pass --dynamic-subtest no-such-part
has out "No dynamic tests executed."
run 98 "$t" --run-subtest thread-fail
has err "failed in a thread"
has err "Failure in a thread!"
has out "Subtest thread-fail: FAIL"
run 139 "$t" --run-subtest crash
has err "Received signal SIGSEGV."
has out "Subtest crash: CRASH"
# API misuse aborts, as upstream's assert()s do.
SELFTEST_CONTAINER_FAIL=1 run 134 "$t" --run-subtest dyn-container
has err "Received signal SIGABRT."
SELFTEST_CHILD_LEFT=1 run 134 "$t" --run-subtest child-left
has out "Subtest child-left: SUCCESS"
has err "Received signal SIGABRT."
# A subtest skipped by its group's fixture prints its result line only.
run 77 "$t" --run-subtest group-skipped
lacks out "Starting subtest: group-skipped"
has out "Subtest group-skipped: SKIP (0.000s)"

SELFTEST_MODE=pass run 0 "$s"
has out "SUCCESS ("
SELFTEST_MODE=skip run 77 "$s"
SELFTEST_MODE=fail run 98 "$s"
has err "Failed assertion: strcmp(mode, \"fail\")"
run 79 "$s" --list-subtests
run 79 "$s" --run-subtest foo

v=$dir/igt_vseg_selftest
run 0 "$v" --run-subtest '*,!table-mismatch,!debugfs-malformed,!sync-dead-peer'
has out "Dynamic subtest multi: SUCCESS"
run 98 "$v" --run-subtest table-mismatch
has err 'segment 2 "local": size is 0x800000, expected 0x1000000'
run 98 "$v" --run-subtest debugfs-malformed
has err 'debugfs allocations: "bogus" is not key=value in "bo 1 owner=1:t size=4096 bogus flags=0x0"'
run 98 "$v" --run-subtest sync-dead-peer
has err 'Failed assertion: read(fd, &c, 1) == 1'

x=$dir/igt_vseg_exec_selftest
run 0 "$x" --run-subtest '*,!display-malformed'
has out "Subtest paging: SUCCESS"
run 98 "$x" --run-subtest display-malformed
has err 'debugfs display lists 1 heads, expected 2'

echo "selftests: $checks checks, $fails failed"
[ "$fails" = 0 ]
