#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# In-guest half of tools/pm-sleep.sh (run it inside tools/vm-run.sh): one
# vseg_pm subtest that puts the system to sleep, run from tmpfs. The host
# root is virtio-9p, whose driver has no freeze/restore: after system
# sleep every access to it hangs. So the test binary, its libraries and
# vseg.ko are copied to tmpfs first, the subtest runs from there, prints
# its result to the console (and the kernel log, whose console output is
# flushed before the reboot) as "pm-sleep-guest: RESULT <subtest> rc=<n>"
# and the guest reboots through sysrq, touching no file again.
#
# usage: tools/pm-sleep-guest.sh KMODDIR TESTBIN SUBTEST

[ $# -eq 3 ] || { sed -n 12p "$0" >&2; exit 2; }
KMOD=$1 BIN=$2 SUB=$3
X=/tmp/pm-sleep

# vseg's dependencies (its modinfo's), loaded while the root still answers
# shellcheck disable=SC2046 # one name per word
modprobe -a $(modinfo -F depends "$KMOD/vseg.ko" | tr ',' ' ') 2>/dev/null
mkdir -p $X || exit 1
cp "$BIN" "$KMOD/vseg.ko" $X/ || exit 1
cp -L /bin/sh $X/sh || exit 1
for l in $(ldd "$BIN" /bin/sh | awk '/=>/ { print $3 } /ld-linux/ { print $1 }'); do
	cp -L "$l" $X/ || exit 1
done
for LD in "$X"/ld-linux*; do break; done
cd $X || exit 1
# From here on only tmpfs: a hibernate may drop the page cache of the root.
exec "$LD" --library-path $X $X/sh -c "IGT_KMOD_PATH=$X VSEG_PM_SYSTEM_SLEEP=1 $LD --library-path $X \
	$X/$(basename "$BIN") --run-subtest $SUB >/dev/console 2>&1
	r=\$?
	echo \"pm-sleep-guest: RESULT $SUB rc=\$r\" >/dev/console
	echo \"<4>pm-sleep-guest: RESULT $SUB rc=\$r\" >/dev/kmsg
	echo 1 >/proc/sys/kernel/sysrq
	echo b >/proc/sysrq-trigger"
