#!/bin/bash
# Print the short report of a "make run" and keep the full one in
# OUTDIR/report.txt: migrations per cause, busiest tasks, CPU matrix; and
# the one-page OUTDIR/report.html of scripts/migrate_report.
#
#   report.sh OUTDIR
set -euo pipefail
out=$1
top=$(cd "$(dirname "$0")/.." && pwd)
stats=$top/scripts/migrate_stats
trace=$out/trace
[ -s "$trace" ] || { echo "harness: no trace in $out (run make run)" >&2; exit 1; }

# One graph per field that is not all zeros, as the documented workflow
# draws them; prints the files written.
graph_fields() {
	local stat=$1 prefix=$2 extract=$top/scripts/migrate_extract field
	for field in $(seq "$("$extract" --min_field "$stat")" "$("$extract" --max_field "$stat")"); do
		"$extract" --extract "$field" "$stat" >"$out/graphs/series" || return 1
		awk '$NF > 0 { found = 1 } END { exit !found }' "$out/graphs/series" || continue
		MIGRATE_PLOT_DIR=$out/graphs "$top/scripts/migrate_plot" \
			-TT "$prefix$("$extract" --field_name "$field" "$stat")" <"$out/graphs/series"
	done
	rm -f "$out/graphs/series"
}

draw_graphs() {
	rm -rf "$out/graphs"
	mkdir -p "$out/graphs"
	"$top/scripts/migrate_plot" --heatmap -TT "from-to CPU heatmap" \
		-o "$out/graphs/heatmap.png" "$trace"
	# Per cause and in total from the kernel's stat; per CPU pair from
	# the trace through migrate_stats --period_cpu_pair.
	[ -s "$out/stat" ] && graph_fields "$out/stat" "stat "
	"$stats" --period 500 --period_cpu_pair "$trace" >"$out/graphs/pairs.stat"
	graph_fields "$out/graphs/pairs.stat" "trace "
	rm -f "$out/graphs/pairs.stat"
}

"$stats" --stats "$trace" >"$out/stats.txt"
"$stats" --summary_pid "$trace" >"$out/tasks.txt"
{
	echo "migrate_trace_lite demo: $(sed -n 's/^# nr_cpus //p' "$trace") CPUs," \
		"$(grep -vc '^#' "$trace") events," \
		"$(sed -n 's/^# dropped //p' "$trace") dropped"
	echo
	echo "== migrations per cause (causes seen)"
	awk '/^duration_sec|^migrations/ { print; next }
	     /^cause / { print; c = 1; next }
	     c && /^total/ { print; exit }
	     c && $2 > 0 { print }' "$out/stats.txt"
	echo
	echo "== why: migrations per cause and reason (format 1.2)"
	awk '/^cause\/reason / { print; r = 1; next }
	     r && /^total/ { print; exit }
	     r { print }' "$out/stats.txt"
	echo
	echo "== busiest tasks (top 10 of $(($(wc -l <"$out/tasks.txt") - 1)))"
	head -11 "$out/tasks.txt"
	echo
	echo "== from/to CPU matrix"
	awk '/^from\\to \(count\)/ { on = 1 } on && /^$/ { exit } on { print }' "$out/stats.txt"
	if [ -s "$out/stat" ]; then
		extract=$top/scripts/migrate_extract
		period=$("$extract" --period_msec "$out/stat")
		echo
		echo "== migration_stat: migrations per second, per ${period} ms period"
		"$extract" --extract "$("$extract" --field_num migrate "$out/stat")" \
			"$out/stat" | awk '{ printf "%8s %9s%s", $1, $2, (NR % 4) ? "  " : "\n" }
					    END { if (NR % 4) print "" }'
	fi
	echo
	echo "== graphs (rates per second): $(draw_graphs | wc -l) PNG files in $out/graphs/"
	echo
	echo "== one page with every table and chart: $out/report.html"
	args=(-o "$out/report.html")
	[ -s "$out/uname" ] && args+=(--kernel "$(cat "$out/uname")")
	args+=("$trace")
	[ -s "$out/stat" ] && args+=("$out/stat")
	"$top/scripts/migrate_report" "${args[@]}" >/dev/null
	echo
	echo "Files in $out: trace (raw, format 1.2), stat (per-period counts),"
	echo "stats.txt (all causes, rates), tasks.txt (every task), report.html, console.log."
} | tee "$out/report.txt"
