#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot a kernel under QEMU with the host root shared read-only over 9p and
# run one command as root inside it, in the current directory. Exits with
# the command's exit status; 124 if the guest timed out, 125 if the guest died
# (panic, oops: oops=panic) or failed to start the command.
#
# QEMU uses KVM when /dev/kvm is usable and a probe boot under KVM (the
# same kernel running "true", at most 60 s) succeeds, else TCG: nested KVM
# fails on some machines. VSEG_ACCEL=tcg or kvm skips the probe; with
# VSEG_ACCEL_CACHE=FILE (make check sets it) the probe's answer is kept
# there and reused, so a run probes once.
#
# usage: tools/vm-run.sh [options] -- command [args...]
#   -k KVER          kernel (default: newest 6.12, see tools/kernels.sh): one
#                    installed in /boot, or a 7.3 of tools/trixie-kernel.sh
#   -t SECONDS       QEMU timeout (default 600)
#   -o OUTDIR        host dir, created, shared writable at the same path in the
#                    guest; gets console.log, dmesg.txt, status
#                    (default build/vm/KVER/out, emptied first)
#   -e VAR[=VALUE]   pass an environment variable (VAR alone: its host value)
#   -b PATH          host path under /tmp or /run to keep visible in the guest
#                    (the cwd is always kept; elsewhere the host root is visible)
#   -q               console only to OUTDIR/console.log, not to the terminal
#   --qemu-args STR  extra QEMU arguments (word-split), e.g. "-device VGA"
#   --kernel IMAGE   boot this bzImage instead of /boot/vmlinuz-KVER
#   --modules DIR    its module tree (INSTALL_MOD_PATH dir or .../lib/modules/KVER)
#   --append STR     extra kernel command line (e.g. "acpi=off")
#   --mem SIZE       guest memory (default 2G)
#   --smp N          guest CPUs (default 2)
#   --screendump     let the guest save the emulated screen ($OUTDIR/.vm-run/
#                    screendump-on says it may): the command writes a NAME
#                    ([A-Za-z0-9_.-], ending .ppm or .png, else .png added) to
#                    $OUTDIR/.vm-run/screendump and waits for .vm-run/
#                    screendump-done; the host has QEMU write OUTDIR/NAME (its
#                    monitor's screendump) in between (tools/lib.sh:
#                    vm_screendump; igt-tests/vseg_bochs.c)
#
# The command runs with PATH, HOME=/root, OUTDIR, VM_RUN=1 and the -e
# variables; stdin is /dev/null. /proc, /sys, /sys/kernel/debug, /dev, and
# tmpfs on /tmp, /run and /dev/shm are mounted; the rest of / is read-only.

USAGE_LINES=15,42
# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
set -e
DIE_STATUS=2

KVER=
TIMEOUT=600
OUTDIR=
QUIET=0
QEMU_EXTRA=
KIMAGE=
MODDIR=
APPEND=
MEM=2G
SMP=2
ENVS=()
BINDS=()
SCREENDUMP=0


ARGS_KIMAGE='' ARGS_MODDIR=''
while [ $# -gt 0 ]; do
	case $1 in
	-k) KVER=${2:?}; shift 2 ;;
	-t) TIMEOUT=${2:?}; shift 2 ;;
	-o) OUTDIR=${2:?}; shift 2 ;;
	-e) ENVS+=("${2:?}"); shift 2 ;;
	-b) BINDS+=("${2:?}"); shift 2 ;;
	-q) QUIET=1; shift ;;
	--qemu-args) QEMU_EXTRA=${2?}; shift 2 ;;
	--kernel) KIMAGE=${2:?}; shift 2 ;;
	--modules) MODDIR=${2:?}; shift 2 ;;
	--append) APPEND=${2?}; shift 2 ;;
	--mem) MEM=${2:?}; shift 2 ;;
	--smp) SMP=${2:?}; shift 2 ;;
	--screendump) SCREENDUMP=1; shift ;;
	-h|--help) usage ;;
	--) shift; break ;;
	*) usage ;;
	esac
done
[ $# -gt 0 ] || usage
case $TIMEOUT in ''|*[!0-9]*) die "bad timeout '$TIMEOUT'" ;; esac
ARGS_KIMAGE=$KIMAGE ARGS_MODDIR=$MODDIR

# Kernel version of a bzImage, from its setup header.
bzimage_version() {
	local off
	off=$(od -An -tu2 -j $((0x20e)) -N2 "$1" | tr -d ' ')
	dd if="$1" bs=1 skip=$((off + 0x200)) count=128 2>/dev/null |
		tr '\0' '\n' | head -n 1 | cut -d' ' -f1
}

MODBASE=/
# A kernel not installed on the host but kept in the cache by
# tools/trixie-kernel.sh (Debian 13's 7.3): its image and module tree.
if [ -z "$KIMAGE" ] && [ -z "$MODDIR" ] && [ -n "$KVER" ] &&
	[ ! -e "/boot/vmlinuz-$KVER" ] &&
	read -r KIMAGE MODDIR < <("$TOOLS/trixie-kernel.sh" --image "$KVER" 2>/dev/null); then
	:
fi
if [ -n "$KIMAGE" ]; then
	[ -r "$KIMAGE" ] || die "cannot read kernel image $KIMAGE"
	KIMAGE=$(realpath "$KIMAGE")
	[ -n "$KVER" ] || KVER=$(bzimage_version "$KIMAGE")
	[ -n "$KVER" ] || die "cannot read the version of $KIMAGE; give -k"
	if [ -n "$MODDIR" ]; then
		MODDIR=$(realpath "$MODDIR")
		if [ -d "$MODDIR/lib/modules/$KVER" ]; then
			MODBASE=$MODDIR
			MODDIR=$MODDIR/lib/modules/$KVER
		else
			case $MODDIR in
			*/lib/modules/*) MODBASE=${MODDIR%/lib/modules/*} ;;
			*) die "--modules: no lib/modules/$KVER in $MODDIR" ;;
			esac
		fi
	fi
else
	[ -z "$MODDIR" ] || die "--modules needs --kernel"
	[ -n "$KVER" ] || KVER=$("$TOOLS/kernels.sh" --default)
	[ -n "$KVER" ] || die "no installed 6.12 kernel (run tools/install-deps.sh)"
	KIMAGE=/boot/vmlinuz-$KVER
	[ -r "$KIMAGE" ] || die "no $KIMAGE"
fi

command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (tools/install-deps.sh)"

CACHE=$REPO/build/vm/$KVER
# a kernel of our own may reuse a Debian version string: keep it apart
[ "$MODBASE" = / ] || CACHE=$REPO/build/vm/custom-$KVER
INITRD=$CACHE/initramfs.cpio.gz
ib_args=(-o "$INITRD")
[ "$MODBASE" = / ] || ib_args+=(-m "$MODBASE")
"$TOOLS/vm-initramfs.sh" "${ib_args[@]}" "$KVER"

if [ -z "$OUTDIR" ]; then
	OUTDIR=$CACHE/out
	DEFAULT_OUT=1
fi
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd -P)
# Two runs must not share an output dir: the second one waits.
exec 9>"$OUTDIR.lock"
if ! flock -n 9; then
	log "waiting for another vm-run using $OUTDIR"
	flock 9
fi
if [ "${DEFAULT_OUT:-0}" = 1 ]; then
	find "$OUTDIR" -mindepth 1 -delete
fi
CWD=$(pwd -P)
rm -rf "$OUTDIR/.vm-run"
rm -f "$OUTDIR/console.log" "$OUTDIR/dmesg.txt" "$OUTDIR/status" \
	"$OUTDIR"/console.boot-failed-*.log
mkdir -p "$OUTDIR/.vm-run"

# sh-safe single quoting (the config is read by busybox sh)
shq() { local s=${1//\'/\'\\\'\'}; printf "'%s'" "$s"; }

binds=$CWD
for b in "${BINDS[@]}"; do
	binds+=$'\n'$(realpath -m "$b")
done
{
	echo "OUTDIR=$(shq "$OUTDIR")"
	echo "MODDIR=$(shq "$MODDIR")"
	echo "BINDS=$(shq "$binds")"
	echo "JOB=$(shq "$OUTDIR/.vm-run/job.sh")"
} >"$OUTDIR/.vm-run/config"

{
	echo "# generated by tools/vm-run.sh"
	echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	echo "export HOME=/root TERM=dumb VM_RUN=1"
	printf 'export OUTDIR=%q\n' "$OUTDIR"
	for e in "${ENVS[@]}"; do
		name=${e%%=*}
		[[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "bad -e '$e'"
		if [[ $e == *=* ]]; then
			printf 'export %s=%q\n' "$name" "${e#*=}"
		elif [ -n "${!name+x}" ]; then
			printf 'export %s=%q\n' "$name" "${!name}"
		fi
	done
	printf 'cd %q || exit 126\n' "$CWD"
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} >"$OUTDIR/.vm-run/job.sh"

CMDLINE="console=ttyS0,115200 loglevel=5 panic=-1 oops=panic"
CMDLINE+=" mitigations=off tsc=reliable no_timer_check $APPEND"

if [ "$QUIET" = 1 ]; then
	console=(-chardev "file,id=con,path=$OUTDIR/console.log")
else
	console=(-chardev "stdio,id=con,signal=on,logfile=$OUTDIR/console.log")
fi
read -r -a qextra <<<"$QEMU_EXTRA"

# probe_kvm: does this kernel boot under KVM and run a command? (the
# probe is this script, with VSEG_ACCEL=kvm, a short timeout and "true")
probe_kvm() {
	local a=() plog=$CACHE/accel-probe.log
	[ -n "$ARGS_KIMAGE" ] && a+=(--kernel "$ARGS_KIMAGE")
	[ -n "$ARGS_MODDIR" ] && a+=(--modules "$ARGS_MODDIR")
	VSEG_ACCEL=kvm VSEG_ACCEL_CACHE='' BOOT_TRIES=1 "$0" -k "$KVER" "${a[@]}" \
		--append "$APPEND" --mem 512M --smp 1 -t 60 -q \
		-o "$CACHE/accel-probe" -- true >"$plog" 2>&1
}

# pick_accel: kvm or tcg, on stdout
pick_accel() {
	local cache=${VSEG_ACCEL_CACHE:-} a
	case ${VSEG_ACCEL:-auto} in
	kvm|tcg) echo "$VSEG_ACCEL"; return ;;
	auto) ;;
	*) die "VSEG_ACCEL must be kvm, tcg or auto, not '$VSEG_ACCEL'" ;;
	esac
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		echo tcg
		return
	fi
	if [ -n "$cache" ]; then
		mkdir -p "$(dirname "$cache")"
		exec 8>>"$cache.lock"
		flock 8
		a=$(cat "$cache" 2>/dev/null || true)
		case $a in kvm|tcg) exec 8>&-; echo "$a"; return ;; esac
	fi
	if probe_kvm; then a=kvm; else a=tcg; fi
	log "KVM probe: $([ $a = kvm ] && echo "works: using KVM" ||
		echo "failed: using TCG (log: $CACHE/accel-probe.log)")"
	if [ -n "$cache" ]; then
		echo "$a" >"$cache"
		exec 8>&-
	fi
	echo "$a"
}
ACCEL=$(pick_accel) || exit 2
if [ "$ACCEL" = kvm ]; then
	accel=(-accel kvm -cpu host)
else
	accel=(-accel tcg -cpu max)
fi

# shellcheck disable=SC2054
qemu=(qemu-system-x86_64 "${accel[@]}" -m "$MEM" -smp "$SMP"
	-nodefaults -display none -no-reboot
	-kernel "$KIMAGE" -initrd "$INITRD" -append "$CMDLINE"
	"${console[@]}" -serial chardev:con
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap
	-virtfs "local,path=$OUTDIR,mount_tag=vmout,security_model=none"
	"${qextra[@]}")

# --screendump: QEMU's monitor on a socket, and a watcher that turns the
# guest's requests into its screendump command (PNG, QEMU 7.1 and later).
mon=$OUTDIR/.vm-run/monitor
watcher=
if [ "$SCREENDUMP" = 1 ]; then
	qemu+=(-monitor "unix:$mon,server=on,wait=off")
	screendump_watch() {
		local req=$OUTDIR/.vm-run/screendump name fmt
		while sleep 0.2; do
			[ -s "$req" ] || continue
			name=$(tr -cd 'A-Za-z0-9_.-' <"$req")
			rm -f "$req"
			case $name in
			*.ppm) fmt=ppm ;;
			*.png) fmt=png ;;
			*) name=$name.png fmt=png ;;
			esac
			case $name in .*|*/*) continue ;; esac
			python3 - "$mon" "screendump $OUTDIR/$name -f $fmt" <<'PY' ||
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
def prompt():
    buf = b""
    while not buf.endswith(b"(qemu) "):
        d = s.recv(4096)
        if not d:
            raise SystemExit(1)
        buf += d
    return buf
prompt()
s.sendall(sys.argv[2].encode() + b"\n")
out = prompt().decode(errors="replace")
lines = [l for l in out.splitlines()[1:] if l.strip() and l != "(qemu) "]
if lines:
    print("vm-run: screendump: " + " ".join(lines), file=sys.stderr)
PY
				echo "vm-run: screendump $name failed" >&2
			touch "$OUTDIR/.vm-run/screendump-done"
		done
	}
	rm -f "$OUTDIR/.vm-run/screendump" "$OUTDIR/.vm-run/screendump-done"
	touch "$OUTDIR/.vm-run/screendump-on"
	screendump_watch &
	watcher=$!
fi

log "booting $KVER ($ACCEL, timeout ${TIMEOUT}s, output in $OUTDIR)"
# A guest that dies before the command starts (a TCG boot flake: seen here
# as an int3 trap in sched_clock while the kernel patches its own text,
# a few boots in a hundred), or whose kernel reported a bug while booting
# (the init gives up then), is booted again, at most BOOT_TRIES times in
# all; once the command has started, nothing is retried.
tries=${BOOT_TRIES:-3}
for ((attempt = 1; ; attempt++)); do
	rm -f "$OUTDIR/.vm-run/started" "$OUTDIR/.vm-run/status"
	t0=$(date +%s.%N)
	set +e
	timeout --foreground -k 10 "$TIMEOUT" "${qemu[@]}" </dev/null
	qrc=$?
	set -e
	t1=$(date +%s.%N)
	sed -i 's/\r$//' "$OUTDIR/console.log" 2>/dev/null || true
	if [ -e "$OUTDIR/.vm-run/started" ] || [ "$qrc" = 124 ] ||
		[ "$qrc" = 137 ] || [ "$attempt" -ge "$tries" ]; then
		break
	fi
	mv "$OUTDIR/console.log" "$OUTDIR/console.boot-failed-$attempt.log"
	echo "vm-run: $KVER: the guest died while booting (qemu exit $qrc," \
		"console kept in console.boot-failed-$attempt.log): booting again" >&2
	grep -a -m 3 -E 'Kernel panic|RIP:|BUG|Oops' \
		"$OUTDIR/console.boot-failed-$attempt.log" >&2 || true
done
[ -z "$watcher" ] || { kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null || true; }

boot=
if [ -e "$OUTDIR/.vm-run/started" ]; then
	ts=$(date -r "$OUTDIR/.vm-run/started" +%s.%N)
	boot=$(awk -v a="$t0" -v b="$ts" 'BEGIN { printf "%.1f", b - a }')
fi
total=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')

show_tail() {
	log "---- last lines of $OUTDIR/console.log ----"
	tail -n "${1:-60}" "$OUTDIR/console.log" >&2 || true
	log "----"
}

if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	log "$KVER: TIMEOUT after ${TIMEOUT}s"
	show_tail
	echo 124 >"$OUTDIR/status"
	exit 124
fi
if [ ! -s "$OUTDIR/.vm-run/status" ]; then
	why="the guest died before the command finished"
	grep -q 'Kernel panic' "$OUTDIR/console.log" 2>/dev/null &&
		why="guest kernel panic"
	[ "$qrc" = 0 ] || why+=" (qemu exit $qrc)"
	log "$KVER: FAILED: $why"
	show_tail 80
	echo 125 >"$OUTDIR/status"
	exit 125
fi
rc=$(cat "$OUTDIR/.vm-run/status")
echo "$rc" >"$OUTDIR/status"
log "$KVER: exit status $rc, boot-to-command ${boot:-?}s, total ${total}s"
exit "$rc"
