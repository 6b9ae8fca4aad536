#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Scan kernel log text (files or stdin) for splats: warnings, BUGs, oopses,
# sanitizer and lockdep reports, hung tasks, call traces, leaks (our driver
# prints "vseg: leak ..." on unload when it leaked; kmemleak prints
# "unreferenced object"). Prints the offending lines; exits 1 if any, else 0.
#
# usage: tools/klog-check.sh [FILE...]
# KLOG_IGNORE: extra extended regex of lines to ignore.

set -uo pipefail

# Case-sensitive patterns, and "leak" in any case.
SPLAT='WARNING:|BUG:|Oops|general protection|KASAN|UBSAN|kernel BUG|possible circular locking|lockdep|INFO: task .* blocked|Call Trace|unreferenced object|[Ll][Ee][Aa][Kk]'
# Not splats: the command line, and the test markers the runner and the
# IGT-style tests write to /dev/kmsg (a subtest may be called "leak-...").
IGNORE='Command line:|Kernel command line:|\[IGT\]|: (starting|finished) subtest |^igt-run: '
[ -n "${KLOG_IGNORE:-}" ] && IGNORE+="|$KLOG_IGNORE"

hits=$(cat -- "$@" | grep -E -- "$SPLAT" | grep -Ev -- "$IGNORE")
if [ -n "$hits" ]; then
	printf '%s\n' "$hits"
	exit 1
fi
exit 0
