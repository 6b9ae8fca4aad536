#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Scan kernel log text (files or stdin) for splats: warnings, BUGs, oopses,
# sanitizer and lockdep reports, hung tasks, call traces, leaks (our driver
# prints "vseg: leak ..." on unload when it leaked; kmemleak prints
# "unreferenced object"). Prints the offending lines; exits 1 if any, else 0.
#
# A test that provokes kernel log lines on purpose announces them with
# igt_emit_ignore_dmesg_regex(): the line "add ignored dmesg regex: RE".
# As igt_runner does, lines matching RE are not splats from that line until
# the next "starting subtest" or "starting dynamic subtest" line, and a new
# announcement replaces the previous one (an invalid RE ignores nothing).
#
# usage: tools/klog-check.sh [FILE...]
# KLOG_EXTRA_IGNORE: extra extended regex of lines to ignore.
# Sourced (". tools/klog-check.sh"), it only sets KLOG_SPLAT, KLOG_IGNORE
# and the function klog_scan (tools/igt-run.sh uses them in bash, without
# a fork per subtest).

# Case-sensitive patterns, and "leak" in any case.
KLOG_SPLAT='WARNING:|BUG:|Oops|general protection|KASAN|UBSAN|kernel BUG|possible circular locking|lockdep|INFO: task .* blocked|Call Trace|unreferenced object|[Ll][Ee][Aa][Kk]'
# Not splats: the command line, the test markers the runner and the
# IGT-style tests write to /dev/kmsg (a subtest may be called "leak-..."),
# and kmemleak saying (once) that an allocation failure injected by
# vseg_faults hit its own bookkeeping, so it scans that object whole.
KLOG_IGNORE='Command line:|Kernel command line:|\[IGT\]|: (starting|finished) subtest |: starting$|^igt-run: |kmemleak: Cannot allocate a scan area, scanning the full object'
if [ -n "${KLOG_EXTRA_IGNORE:-}" ]; then
	KLOG_IGNORE+="|$KLOG_EXTRA_IGNORE"
fi
# What IGT's library writes to the kernel log (igt_runner's markers).
KLOG_SUBTEST_START=': starting (dynamic )?subtest '
KLOG_ADD_IGNORE='add ignored dmesg regex: '

# klog_scan: kernel log lines on stdin (one record each); sets KLOG_HITS to
# the splat lines, each followed by a newline, "" if none.
klog_scan() {
	local line re=
	KLOG_HITS=
	while IFS= read -r line; do
		[[ $line =~ $KLOG_SUBTEST_START ]] && re=
		[[ $line == *"$KLOG_ADD_IGNORE"* ]] && re=${line#*"$KLOG_ADD_IGNORE"}
		[[ $line =~ $KLOG_SPLAT ]] || continue
		[[ $line =~ $KLOG_IGNORE ]] && continue
		# status 2 (an invalid regex) ignores nothing
		[ -n "$re" ] && [[ $line =~ $re ]] && continue
		KLOG_HITS+=$line$'\n'
	done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	# the whole log only when grep finds candidates: bash reads slowly
	hits=$(cat -- "$@" | grep -E -- "$KLOG_SPLAT" | grep -Ev -- "$KLOG_IGNORE")
	if [ -n "$hits" ]; then
		klog_scan < <(cat -- "$@")
		if [ -n "$KLOG_HITS" ]; then
			printf '%s' "$KLOG_HITS"
			exit 1
		fi
	fi
	exit 0
fi
