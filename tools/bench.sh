#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "make bench": boot the 6.12 kernel with vseg, vgem and bochs (on a
# bochs-display device) loaded together, run benchmarks/ in the guest
# (tools/bench-guest.sh), then on the host print one table (benchmark, vseg
# figure, anchor figure, ratio, target, met), write build/bench/results.json
# and plot the scaling curves to build/bench/scaling.png (gnuplot).
#
# Environment:
#   BENCH_KVER        kernel (default: the newest installed 6.12)
#   BENCH_SUBTESTS    subset of the benchmarks' subtests (space-separated)
#   BENCH_TIMEOUT     seconds for the whole guest run (default 1500)
#   BENCH_MEM         guest memory (default 4G: 100k live buffers, 768 MiB
#                     of segments, 64 MiB buffers)
#   VSEG_BENCH_RUNS, VSEG_BENCH_SCALE  runs per figure, buffer-count
#                     percentage (quick tries; see benchmarks/vseg_bench.c)
#   BENCH_PERF=1      profile each subtest (perf record -a -g in the guest):
#                     build/bench/vm/perf-SUBTEST.txt (flat) and -graph.txt,
#                     -all.txt: every process and kernel thread
#   QEMU_ARGS         extra QEMU arguments
#   SKIP_DEPS=1       do not run tools/install-deps.sh --bench
# Output: build/bench/{bench.log,results.json,scaling.dat,scaling.png,table.txt}
# and the guest's console.log and dmesg.txt in build/bench/vm/.

# shellcheck source=tools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO" || exit 1
MAKE=${MAKE:-make}
OUT=$REPO/build/bench

if [ "${SKIP_DEPS:-0}" != 1 ]; then
	DEBUG_TIER=0 "$TOOLS/install-deps.sh" --bench || die "tools/install-deps.sh --bench failed"
fi
KVER=${BENCH_KVER:-$("$TOOLS/kernels.sh" | grep '^6\.12\.' | tail -n 1)}
[ -n "$KVER" ] || die "no 6.12 kernel installed (tools/install-deps.sh)"

"$TOOLS/build-module.sh" "$KVER" || die "building vseg.ko for $KVER failed"
$MAKE -s -C "$REPO/benchmarks" MAKEOVERRIDES= >/dev/null || die "building benchmarks/ failed"
mapfile -t bins < <($MAKE -s -C "$REPO/benchmarks" MAKEOVERRIDES= list)
[ ${#bins[@]} -gt 0 ] || die "no benchmark binaries"

# The "bar" subtest binds vseg to an ivshmem-plain device whose 256 MiB
# BAR 2 becomes the "vram" segment.
BAR_QEMU_ARGS="-object memory-backend-ram,id=ivmem,size=256M -device ivshmem-plain,memdev=ivmem"
mkdir -p "$OUT"
rm -f "$OUT"/bench.log "$OUT"/results.json "$OUT"/scaling.dat "$OUT"/scaling.png "$OUT"/table.txt
say "$KVER, guest log in $OUT/vm/console.log"
start=$(date +%s)
# shellcheck disable=SC2086
"$TOOLS/vm-run.sh" -q -k "$KVER" -t "${BENCH_TIMEOUT:-1500}" -o "$OUT/vm" \
	--mem "${BENCH_MEM:-4G}" \
	--qemu-args "-device bochs-display,vgamem=256M $BAR_QEMU_ARGS ${QEMU_ARGS:-}" \
	-e BENCH_SUBTESTS="${BENCH_SUBTESTS:-}" -e VSEG_BENCH_RUNS="${VSEG_BENCH_RUNS:-}" \
	-e VSEG_BENCH_SCALE="${VSEG_BENCH_SCALE:-}" -e BENCH_PERF="${BENCH_PERF:-0}" -- \
	"$TOOLS/bench-guest.sh" "$REPO/build/$KVER/drivers/gpu/drm/vseg" "${bins[@]}"
rc=$?
[ -r "$OUT/vm/bench.log" ] && cp "$OUT/vm/bench.log" "$OUT/bench.log"
grep '^bench-guest:' "$OUT/vm/console.log" 2>/dev/null
if [ ! -s "$OUT/bench.log" ]; then
	tail -n 40 "$OUT/vm/console.log" 2>/dev/null
	die "the guest produced no results (exit $rc)"
fi

# --- JSON ------------------------------------------------------------------
awk -F'\t' -v kver="$KVER" -v date="$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    -v commit="$(git -C "$REPO" describe --always --dirty 2>/dev/null)" '
function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
$1 == "BENCH-ROW" {
	r[nr++] = sprintf("    {\"id\": %s, \"benchmark\": %s, \"unit\": %s, " \
		"\"vseg\": {\"median\": %s, \"min\": %s, \"max\": %s}, " \
		"\"anchor\": {\"name\": %s, \"median\": %s, \"min\": %s, \"max\": %s}, " \
		"\"ratio\": %s, \"target\": %s, \"met\": %s}",
		q($2), q($3), q($4), $5, $6, $7, q($8), $9, $10, $11,
		($12 ~ /^[0-9.]+$/ ? $12 : q($12)), q($13), q($14))
}
$1 == "BENCH-POINT" {
	p[np++] = sprintf("    {\"series\": %s, \"live\": %s, \"median\": %s, \"min\": %s, \"max\": %s}",
		q($2), $3, $4, $5, $6)
}
$1 == "BENCH-INFO" { i[ni++] = sprintf("    %s: %s", q($2), q($3)) }
END {
	printf "{\n  \"kernel\": %s,\n  \"date\": %s,\n  \"commit\": %s,\n", q(kver), q(date), q(commit)
	printf "  \"note\": \"every figure: median, min and max of interleaved runs in one guest boot\",\n"
	printf "  \"rows\": [\n"
	for (k = 0; k < nr; k++) printf "%s%s\n", r[k], k < nr - 1 ? "," : ""
	printf "  ],\n  \"scaling\": {\"unit\": \"us per create\", \"points\": [\n"
	for (k = 0; k < np; k++) printf "%s%s\n", p[k], k < np - 1 ? "," : ""
	printf "  ]},\n  \"info\": {\n"
	for (k = 0; k < ni; k++) printf "%s%s\n", i[k], k < ni - 1 ? "," : ""
	printf "  }\n}\n"
}' "$OUT/bench.log" >"$OUT/results.json"

# --- table -------------------------------------------------------------------
awk -F'\t' '
function num(x) { return x + 0 >= 100 ? sprintf("%.0f", x) : sprintf("%.3g", x) }
function fig(m, lo, hi, u) {
	if (m == "0" && lo == "0" && hi == "0") return "-"
	return sprintf("%s [%s-%s] %s", num(m), num(lo), num(hi), u)
}
$1 == "BENCH-ROW" {
	n++
	b[n] = $3; v[n] = fig($5, $6, $7, $4)
	a[n] = $8 == "-" ? "-" : $8 ": " fig($9, $10, $11, $4)
	r[n] = $12; t[n] = $13; m[n] = $14
	if (m[n] == "NO") bad++
}
END {
	fmt = "%-58s | %-28s | %-42s | %-7s | %-11s | %s\n"
	printf fmt, "benchmark", "vseg: median [min-max]", "anchor: median [min-max]", "ratio", "target", "met"
	for (k = 1; k <= n; k++) printf fmt, b[k], v[k], a[k], r[k], t[k], m[k]
	printf "%d rows, %d targets not met\n", n, bad
}' "$OUT/bench.log" | tee "$OUT/table.txt"

# --- plot --------------------------------------------------------------------
awk -F'\t' '$1 == "BENCH-POINT" { print $2, $3, $4, $5, $6 }' "$OUT/bench.log" >"$OUT/scaling.dat"
if [ -s "$OUT/scaling.dat" ] && command -v gnuplot >/dev/null; then
	series=$(cut -d' ' -f1 "$OUT/scaling.dat" | sort -u)
	plot=
	for s in $series; do
		[ -z "$plot" ] || plot+=", "
		plot+="'< grep \"^$s \" $OUT/scaling.dat' using 2:3:4:5 with yerrorlines title '$s'"
	done
	gnuplot <<EOT || say "gnuplot failed"
set terminal pngcairo size 900,560 noenhanced
set output '$OUT/scaling.png'
set title 'create latency against live buffers ($KVER, TCG guest): median, min-max'
set xlabel 'live buffers'
set ylabel 'microseconds per create'
set logscale x
set offsets graph 0.04, graph 0.04, 0, 0
set yrange [0:*]
set grid
set key top left
plot $plot
EOT
else
	say "no gnuplot or no scaling points: no plot"
fi
say "$OUT/results.json, $OUT/scaling.png, $OUT/table.txt ($(($(date +%s) - start)) s)"
[ "$rc" = 0 ] || say "the guest run failed (exit $rc): see $OUT/vm/console.log"
exit "$rc"
