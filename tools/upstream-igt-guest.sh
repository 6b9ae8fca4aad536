#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# In-guest part of "make check-upstream-igt" (run it inside tools/vm-run.sh):
# install vseg under /lib/modules/$(uname -r) from a module layer (a
# directory with vseg/vseg.ko and depmod's modules.* files, made on the host
# by tools/upstream-igt.sh): a tmpfs directory of links to the kernel's own
# module tree plus the layer's files is bound over that tree (no overlayfs:
# the debug kernel has none). Then vseg is loaded and unloaded once (the
# kernel's one-time "loading out-of-tree module taints kernel" warning
# belongs to no test) and upstream's igt_runner runs on TEST_ROOT (a
# directory with the binaries and test-list.txt). With -g, igt_runner then
# runs a second time, on GENERIC_ROOT (upstream's own generic tests, such
# as dumb_buffer), with IGT_FORCE_DRIVER=vseg: their drm_open_driver(
# DRIVER_ANY) opens vseg's node, no other driver's. For that run vseg is
# loaded beforehand with MODULE_OPTIONS (-m, e.g. "fbdev=0": no fbcon
# holding a CRTC), which a tmpfs /etc/modprobe.d also gives any later load
# (a test's igt_kmod_load()). -L names an igt_runner --test-list for it
# (lines igt@TEST or igt@TEST@SUBTEST).
#
# usage: tools/upstream-igt-guest.sh -l LAYER -r IGT_RUNNER -o RESULTS_DIR
#                                    [-t SUBTEST_TIMEOUT]
#                                    [-g GENERIC_ROOT -G GENERIC_RESULTS_DIR
#                                     [-L GENERIC_TEST_LIST] [-m MODULE_OPTIONS]]
#                                    TEST_ROOT
# igt_runner's output goes to $OUTDIR/runner.log (the second run's to
# $OUTDIR/runner-generic.log); its results.json to RESULTS_DIR (and
# GENERIC_RESULTS_DIR). Exit status: 0 when every igt_runner run exited 0,
# else the first nonzero one's; 3 if the modules could not be set up.

USAGE_LINES=21,29
# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LAYER=
RUNNER=
RESULTS=
TMO=120
GENERIC=
GRESULTS=
GLIST=
MODOPTS=
while getopts l:r:o:t:g:G:L:m:h opt; do
	case $opt in
	l) LAYER=$OPTARG ;;
	r) RUNNER=$OPTARG ;;
	o) RESULTS=$OPTARG ;;
	t) TMO=$OPTARG ;;
	g) GENERIC=$OPTARG ;;
	G) GRESULTS=$OPTARG ;;
	L) GLIST=$OPTARG ;;
	m) MODOPTS=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ] || [ -z "$LAYER" ] || [ -z "$RUNNER" ] || [ -z "$RESULTS" ] ||
	{ [ -n "$GENERIC" ] && [ -z "$GRESULTS" ]; }; then
	usage
fi
ROOT=$1
KVER=$(uname -r)
LOG=${OUTDIR:-.}/runner.log

moddir=/lib/modules/$KVER
orig=/tmp/upstream-igt-modules/orig
new=/tmp/upstream-igt-modules/new
mkdir -p "$orig" "$new"
if ! mount --bind "$moddir" "$orig"; then
	log "cannot bind $moddir"
	exit 3
fi
for e in "$orig"/*; do
	ln -s "$e" "$new/${e##*/}"
done
for e in "$LAYER"/*; do
	rm -f "$new/${e##*/}"
	cp -a "$e" "$new/" || exit 3
done
if ! mount --bind "$new" "$moddir"; then
	log "cannot bind $new over $moddir"
	exit 3
fi
if ! modprobe vseg || ! rmmod vseg; then
	log "modprobe vseg / rmmod vseg failed"
	exit 3
fi

# upstream's igt_kmod_load() ignores it, the vseg helpers would not
unset IGT_KMOD_PATH
log "$KVER: igt_runner on $ROOT"
"$RUNNER" --per-test-timeout "$TMO" --prune-mode keep-subtests -o \
	"$ROOT" "$RESULTS" >"$LOG" 2>&1
rc=$?
tail -n 3 "$LOG"

if [ -n "$GENERIC" ]; then
	# vseg's programs leave vseg unloaded: loaded here with the
	# options, which any later load gets too
	if [ -n "$MODOPTS" ]; then
		mpd=/tmp/upstream-igt-modprobe.d
		mkdir -p "$mpd"
		cp -a /etc/modprobe.d/. "$mpd/" 2>/dev/null
		echo "options vseg $MODOPTS" >"$mpd/zz-vseg-upstream-igt.conf"
		mount --bind "$mpd" /etc/modprobe.d ||
			log "cannot bind $mpd over /etc/modprobe.d"
	fi
	# shellcheck disable=SC2086 # the options are words
	modprobe vseg $MODOPTS || log "modprobe vseg $MODOPTS failed"
	largs=()
	[ -z "$GLIST" ] || largs=(--test-list "$GLIST")
	log "$KVER: igt_runner on $GENERIC (IGT_FORCE_DRIVER=vseg, vseg ${MODOPTS:-with no options})"
	IGT_FORCE_DRIVER=vseg "$RUNNER" --per-test-timeout "$TMO" \
		--prune-mode keep-subtests "${largs[@]}" -o "$GENERIC" \
		"$GRESULTS" >"${OUTDIR:-.}/runner-generic.log" 2>&1
	grc=$?
	tail -n 3 "${OUTDIR:-.}/runner-generic.log"
	[ "$rc" != 0 ] || rc=$grc
fi
exit "$rc"
