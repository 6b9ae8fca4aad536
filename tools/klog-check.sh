#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Scan kernel log text (files or stdin) for splats: warnings, BUGs, oopses,
# sanitizer and lockdep reports, hung tasks, call traces, leaks (our driver
# prints "vseg: leak ..." on unload when it leaked; kmemleak prints
# "unreferenced object"). Prints the offending lines; exits 1 if any, else 0.
#
# usage: tools/klog-check.sh [FILE...]
# KLOG_EXTRA_IGNORE: extra extended regex of lines to ignore.
# Sourced (". tools/klog-check.sh"), it only sets KLOG_SPLAT and KLOG_IGNORE
# (tools/igt-run.sh matches them in bash to avoid a fork per subtest).

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

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	hits=$(cat -- "$@" | grep -E -- "$KLOG_SPLAT" | grep -Ev -- "$KLOG_IGNORE")
	if [ -n "$hits" ]; then
		printf '%s\n' "$hits"
		exit 1
	fi
	exit 0
fi
