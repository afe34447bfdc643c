#!/bin/sh
# The trace event sched_migrate_reason in the peers guest, sourced by
# peers.sh after peers-lib.sh: in one run, mt traces while trace-cmd,
# perf and bpftrace (counting by cause and reason) record the event and
# two ftrace instances keep it through a filter, one on a cause and one
# on a reason; a real workload moves tasks between two marks of mt.
#
# What each consumer reports is read from its own output: trace-cmd
# report's and perf script's lines (names, from the event's print fmt),
# bpftrace's maps (numbers, named from the event's format file, which is
# the kernel's), the instances' trace files.  Their counts per (cause,
# reason) are held against mt's by an oracle that holds for any workload:
# mt runs from before the first consumer attaches until after the last
# detaches, and the consumers are attached from before mt's first mark
# until after its second, so, per (cause, reason),
#
#   all tasks:    mt between the marks <= the consumer's count <= mt's all
#   the tasks created between two pids taken after the first mark and
#   after the workload (every one of them, kernel threads included):
#                 mt's up to the second mark <= the consumer's
#                                            <= mt's up to its stop
#
# so that only moves at the windows' edges may differ.  A filtered
# instance is held to mt's moves of its cause or reason.
#
#   why_tests N     the WHY_TESTS results numbered from N, as KTAP lines
WHY_TESTS=12
WHY_FMT=${WHY_FMT:-/sys/kernel/tracing/events/sched/sched_migrate_reason/format}
WHY=/tmp/why

# "NUMBER NAME" of REC->FIELD's __print_symbolic() pairs in the format.
why_names() {
	awk -v f="__print_symbolic(REC->$1," '/^print fmt:/ {
		s = substr($0, index($0, f) + length(f))
		s = substr(s, 1, index(s, ")"))
		while (match(s, /\{ *[0-9]+, *"[a-z_0-9]+" *\}/)) {
			p = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			gsub(/[{}",]/, " ", p)
			split(p, a, " ")
			print a[1], a[2]
		}
	}' "$WHY_FMT"
}

# mt's moves as "PID CAUSE REASON ZONE" (names; zone 0 before the first
# mark, 1 between the marks, 2 after the second).
why_mt() {
	awk '/^# cause / { c[$3] = $4; next } /^# reason / { r[$3] = $4; next }
	     /^# loc / && $4 == "mark" { m = $3; next } /^#/ { next }
	     $3 == "." && $6 == m { z++; next }
	     $3 != "." && NF == 7 { print $5, c[$6], ($7 in r) ? r[$7] : "none", z + 0 }' "$1"
}

# why_oracle MT THEIRS P0 P1 [CAUSE REASON]: THEIRS ("PID CAUSE REASON
# COUNT", PID "all" for counts of every task) against MT (why_mt), per
# (cause, reason), restricted to CAUSE or REASON when not "-".  Prints
# "ok" or the first keys that break it, then what was compared.
why_oracle() {
	awk -v p0="$3" -v p1="$4" -v wc="${5:--}" -v wr="${6:--}" '
	FNR == 1 { f++ }
	wc != "-" && $2 != wc { next }
	wr != "-" && $3 != wr { next }
	f == 1 {
		k = $2 "/" $3
		keys[k] = 1
		if ($4 == 1) alo[k]++
		ahi[k]++
		if ($1 > p0 && $1 < p1) { if ($4 == 1) nlo[k]++; nhi[k]++; nmt++ }
		next
	}
	{
		k = $2 "/" $3
		keys[k] = 1
		if ($1 == "all") { all[k] += $4; hasall = 1; next }
		if ($1 > p0 && $1 < p1) { new[k] += $4; nthem += $4 }
		them[k] += $4
	}
	END {
		bad = ""
		for (k in keys) {
			a = hasall ? all[k] : them[k]
			if (a < alo[k] || a > ahi[k])
				bad = bad sprintf(" %s: all %d not in [%d, %d];", k, a, alo[k], ahi[k])
			if (new[k] < nlo[k] || new[k] > nhi[k])
				bad = bad sprintf(" %s: new %d not in [%d, %d];", k, new[k], nlo[k], nhi[k])
			nk++
		}
		print bad == "" ? "ok" : "bad" substr(bad, 1, 300)
		printf "%d (cause, reason) pairs; the new tasks: %d moves by the consumer, %d by mt\n", nk, nthem, nmt
	}' "$1" "$2"
}

# why_result N DESCRIPTION VERDICT [DETAIL]: a KTAP line, ok if VERDICT
# is "ok"; DETAIL (and a bad verdict) as comments.
why_result() {
	if [ "$3" = ok ]; then
		echo "ok $1 - $2"
	else
		echo "not ok $1 - $2"
		echo "# $3"
	fi
	[ -n "${4:-}" ] && echo "$4" | sed 's/^/# /'
}

# Every line of FILE ("PID CAUSE REASON") names a cause and a reason of
# the format, and it has at least MIN causes: "ok", else what is wrong.
why_named() {
	n=$(wc -l <"$1")
	bad=$(awk 'NR == FNR { if ($1 == "c") c[$2] = 1; else r[$2] = 1; next }
		   !($2 in c) || !($3 in r) { print; exit }' "$WHY/names" "$1")
	causes=$(awk '{ print $2 }' "$1" | sort -u | wc -l)
	if [ "$n" -gt 0 ] && [ -z "$bad" ] && [ "$causes" -ge "$2" ]; then
		echo ok
	else
		echo "$n lines, $causes causes, unnamed: ${bad:-none}"
	fi
}

why_tests() {
	n=$1
	rm -rf "$WHY"
	mkdir -p "$WHY"
	why_names cause | sed 's/^/c /' >"$WHY/names"
	why_names reason | sed 's/^/r /' >>"$WHY/names"
	ncause=$(awk '$1 == "c" && $3 == "try_to_wake_up" { print $2 }' "$WHY/names")
	nreason=$(awk '$1 == "r" && $3 == "affinity" { print $2 }' "$WHY/names")
	# The names' table as "NUMBER NAME" per kind, for bpftrace's numbers.
	awk '{ print $1, $2, $3 }' "$WHY/names" >"$WHY/numbers"
	awk '{ print $1, $3 }' "$WHY/names" >"$WHY/names.tmp" && mv "$WHY/names.tmp" "$WHY/names"

	echo 0 >$MT/enable
	echo 0 >$MT/reset
	echo 4096 >$MT/buffer_size_kb
	echo 1 >$MT/enable
	# The filters, each in its own ftrace instance.
	for f in cause reason; do
		I=/sys/kernel/tracing/instances/why-$f
		mkdir -p $I
		echo 8192 >$I/buffer_size_kb
		if [ $f = cause ]; then
			echo "cause == $ncause" >$I/events/sched/sched_migrate_reason/filter
		else
			echo "reason == $nreason" >$I/events/sched/sched_migrate_reason/filter
		fi
		echo 1 >$I/events/sched/sched_migrate_reason/enable
	done
	attached=ok
	for p in rtracecmd rperf rbt; do
		peer_start $p || attached="$p did not attach"
	done
	echo 0x7701 >$MT/mark
	p0=$(sh -c 'echo $$')
	# A real workload: forks and execs, wakeups, an affinity hop, RT
	# tasks pushed and pulled, on the 2 CPUs.
	/guest/mt_helper mixed 3 /bin/true >/dev/null
	/guest/mt_helper fifo 4 300 >/dev/null
	p1=$(sh -c 'echo $$')
	echo 0x7702 >$MT/mark
	for p in rtracecmd rperf rbt; do
		peer_stop $p
	done
	for f in cause reason; do
		I=/sys/kernel/tracing/instances/why-$f
		echo 0 >$I/events/sched/sched_migrate_reason/enable
		cat $I/trace >"$WHY/f$f.trace"
		awk '/^overrun:/ { n += $2 } END { print n + 0 }' $I/per_cpu/cpu*/stats >"$WHY/f$f.lost"
		echo 0 >$I/events/sched/sched_migrate_reason/filter
		rmdir $I
	done
	echo 0 >$MT/enable
	cat $MT/trace >"$WHY/mt.trace"
	echo 0 >$MT/reset
	echo 1024 >$MT/buffer_size_kb

	why_mt "$WHY/mt.trace" >"$WHY/mt"
	peer_whys rtracecmd >"$WHY/rtracecmd"
	peer_whys rperf >"$WHY/rperf"
	peer_whys ftrace "$WHY/fcause.trace" >"$WHY/fcause"
	peer_whys ftrace "$WHY/freason.trace" >"$WHY/freason"
	# bpftrace's numbers, named by the format.
	peer_why_counts | awk 'NR == FNR { name[$1 " " $2] = $3; next }
		{ print $1, name["c " $2], name["r " $3], $4 }' "$WHY/numbers" - >"$WHY/rbt"

	lost=$(sed -n 's/^# \(dropped\|overwritten\) //p' "$WHY/mt.trace" | tr '\n' ' ')
	causes=$(awk '$4 == 1 { print $2 }' "$WHY/mt" | sort -u | wc -l)
	reasons=$(awk '$4 == 1 { print $2 "/" $3 }' "$WHY/mt" | sort -u | wc -l)
	[ "$lost" = "0 0 " ] && [ "$causes" -ge 3 ] && [ "$reasons" -ge 5 ] && v=ok ||
		v="mt lost '$lost'; $causes causes, $reasons (cause, reason) pairs"
	why_result $n "the workload's moves between mt's marks: $(awk '$4 == 1' "$WHY/mt" | wc -l), $causes causes, $reasons (cause, reason) pairs, none lost" \
		"$v" \
		"$(awk '$4 == 1 { n[$2 "/" $3]++ } END { for (k in n) print n[k], k }' "$WHY/mt" | sort -rn | head -12 | tr '\n' ' ')"
	why_result $((n + 1)) "trace-cmd, perf and bpftrace attached to sched:sched_migrate_reason at once" \
		"$attached"
	why_result $((n + 2)) "trace-cmd report names causes and reasons" \
		"$(why_named "$WHY/rtracecmd" 3)" "$(head -1 "$WHY/rtracecmd")"
	why_result $((n + 3)) "perf script names causes and reasons" \
		"$(why_named "$WHY/rperf" 3)" "$(head -1 "$WHY/rperf")"
	awk '{ for (i = 1; i <= $4; i++) print $1, $2, $3 }' "$WHY/rbt" | grep -v '^all ' >"$WHY/rbt.lines"
	why_result $((n + 4)) "bpftrace counts by (cause, reason), numbers the format names" \
		"$(why_named "$WHY/rbt.lines" 3)" "$(grep -m2 '^@' "$PEERS/rbt.out")"
	v=$(awk -v c=try_to_wake_up '$2 != c { print; exit }' "$WHY/fcause")
	[ -s "$WHY/fcause" ] && [ -z "$v" ] && v=ok || v="kept: ${v:-nothing}"
	why_result $((n + 5)) "ftrace's filter 'cause == $ncause' keeps only try_to_wake_up: $(wc -l <"$WHY/fcause") moves" "$v"
	v=$(awk -v r=affinity '$3 != r { print; exit }' "$WHY/freason")
	[ -s "$WHY/freason" ] && [ -z "$v" ] && v=ok || v="kept: ${v:-nothing}"
	why_result $((n + 6)) "ftrace's filter 'reason == $nreason' keeps only affinity: $(wc -l <"$WHY/freason") moves" "$v"
	# The oracle, for each consumer.
	i=$((n + 7))
	for c in rtracecmd rperf rbt fcause freason; do
		case $c in
		rbt) cp "$WHY/rbt" "$WHY/$c.counts" ;;
		*) awk '{ print $1, $2, $3, 1 }' "$WHY/$c" >"$WHY/$c.counts" ;;
		esac
		case $c in
		fcause) only="try_to_wake_up -"; l=$(cat "$WHY/fcause.lost") ;;
		freason) only="- affinity"; l=$(cat "$WHY/freason.lost") ;;
		rbt) only="- -"; l=0 ;;
		*) only="- -"; l=$(peer_lost $c) ;;
		esac
		# shellcheck disable=SC2086
		set -- $(why_oracle "$WHY/mt" "$WHY/$c.counts" "$p0" "$p1" $only)
		v=$1
		shift
		why_result $i "$c: per (cause, reason), its counts equal mt's but for the windows' edges" \
			"$v" "$*; lost $l"
		i=$((i + 1))
	done
}
