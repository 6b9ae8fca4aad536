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
# $DIE_STATUS, 1 by default) and usage (print lines $USAGE_LINES,
# "FIRST,LAST", of the script: its usage comment; then exit 2).

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
