# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# What every script of tools/ starts with, sourced right after its header
# comment:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"          (tools/*.sh)
#   . "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"       (tools/*/*.sh)
#
# It sets "-u -o pipefail" (a script that wants -e too says "set -e" after
# it: the ones that count failures themselves do not), TOOLS (this
# directory, physical), REPO (the tree) and PROG (the prefix of messages:
# the script's name without .sh, unless the script set PROG first), and
# defines say (stdout), log (stderr), die (stderr, then exit
# $DIE_STATUS, 1 by default), usage (print lines $USAGE_LINES,
# "FIRST,LAST", of the script: its usage comment; then exit 2),
# load_deps (modprobe the modules a .ko depends on), vseg_cache (the
# cache outside the clone, created: $VSEG_CACHE, else
# /var/cache/vseg, else ~/.cache/vseg when that is not writable) and
# debian_uri (the archive URI of the machine's own Debian entry for a
# suite, so that no archive host is ever written in this tree).

set -uo pipefail

# shellcheck disable=SC2034 # for the scripts
TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck disable=SC2034
REPO=$(dirname "$TOOLS")
PROG=${PROG:-$(basename "${BASH_SOURCE[1]}" .sh)}

say() { echo "$PROG: $*"; }
log() { echo "$PROG: $*" >&2; }
die() { log "$*"; exit "${DIE_STATUS:-1}"; }
usage() { sed -n "${USAGE_LINES:?}p" "$0" >&2; exit 2; }

# load_deps MODULE.ko: modprobe each module MODULE.ko depends on (the
# "depends" of its modinfo; modprobe brings theirs), so that a new
# dependency of vseg needs no change in the tools. Fails if one does not
# load, after trying them all.
load_deps() {
	local m rc=0

	for m in $(modinfo -F depends "$1" 2>/dev/null | tr ',' ' '); do
		if ! modprobe -q "$m"; then
			log "cannot load $m, needed by $1"
			rc=1
		fi
	done
	return "$rc"
}

# vm_screendump NAME: in a guest of tools/vm-run.sh --screendump, have the
# host save the emulated screen as $OUTDIR/NAME.png; fails after 60 s.
vm_screendump() {
	local d=$OUTDIR/.vm-run i

	rm -f "$d/screendump-done"
	echo "$1" >"$d/screendump.new" && mv "$d/screendump.new" "$d/screendump" ||
		return 1
	for ((i = 0; i < 600; i++)); do
		[ -e "$d/screendump-done" ] && break
		sleep 0.1
	done
	[ -s "$OUTDIR/$1.png" ]
}

vseg_cache() {
	local c=${VSEG_CACHE:-}

	if [ -z "$c" ]; then
		c=/var/cache/vseg
		if ! mkdir -p "$c" 2>/dev/null || [ ! -w "$c" ]; then
			c=${XDG_CACHE_HOME:-$HOME/.cache}/vseg
		fi
	fi
	mkdir -p "$c" || die "cannot create $c"
	(cd "$c" && pwd -P)
}

# debian_uri SUITE: the URI of the machine's Debian apt entry for SUITE
# (deb822 sources first, then sources.list), empty if there is none.
debian_uri() {
	local suite=$1 f uri=

	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		uri=$(awk -v s="$suite" '
			function stanza() {
				if (hit && deb && u != "") { print u; found = 1; exit }
				hit = 0; deb = 0; u = ""
			}
			/^URIs:/ { u = $2 }
			/^Types:/ { deb = 0; for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
			/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) hit = 1 }
			/^[[:space:]]*$/ { stanza() }
			END { if (!found) stanza() }' "$f")
		[ -z "$uri" ] || break
	done
	if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
		uri=$(awk -v s="$suite" '$1 == "deb" && $3 == s { print $2; exit }' \
			/etc/apt/sources.list)
	fi
	echo "$uri"
}
