#!/bin/sh
# The peers of make bench in the guest, shared by bench.sh and peers.sh:
# Debian's perf, trace-cmd and bpftrace (from the bench initramfs), each
# attached as its documentation shows, started in the background and
# waited for until attached, stopped cleanly with SIGINT, and what it
# received counted from its own output.
#
#   peer_start NAME     tracecmd, perf, btcount or btprint, or on the
#                       event sched_migrate_reason: rtracecmd, rperf or
#                       rbt (bpftrace counting by cause and reason); its
#                       pid is then $peer_pid (and $pid_NAME: several
#                       can run)
#   peer_stop NAME      stop it once its output is still; its output
#                       stays in $PEERS
#   peer_events NAME    its events as "PID ORIG DEST", one a line
#   peer_whys NAME      rtracecmd's or rperf's events as "PID CAUSE REASON"
#   peer_why_counts     rbt's maps as "PID CAUSE REASON COUNT" (numbers;
#                       PID "all" for its map by cause and reason alone)
#   peer_pairs NAME     btcount's map as "ORIG DEST COUNT"
#   peer_lost NAME      the events it says it lost
PEERS=/tmp/peers
PEER_TR=/sys/kernel/tracing
mkdir -p $PEERS

# The one-liners, as a user writes them.
BT_COUNT='tracepoint:sched:sched_migrate_task { @[args->orig_cpu, args->dest_cpu] = count(); }'
BT_PRINT='tracepoint:sched:sched_migrate_task { printf("comm=%s pid=%d orig_cpu=%d dest_cpu=%d\n", args->comm, args->pid, args->orig_cpu, args->dest_cpu); }'

# The trace event with the why; bpftrace 0.17 reads a tracepoint's fields
# as args->NAME.  The second map counts by task too, for the oracle of the
# tasks created in a window.
EV_WHY=sched:sched_migrate_reason
# Its BEGIN probe runs once every probe is attached: "attached" then
# means attached (asleep after "Attaching" did not, on a loaded host).
BT_WHY='BEGIN { printf("attached\n"); } tracepoint:sched:sched_migrate_reason { @[args->cause, args->reason] = count(); @pid[args->pid, args->cause, args->reason] = count(); }'

# The perf_event file descriptors process $1 holds.
perf_fds() { ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'perf_event'; }

# Process $1 sleeps in poll(): perf record reaches its loop over its
# buffers once its events are enabled (they are open before that).
polling() { case $(cat "/proc/$1/wchan" 2>/dev/null) in *poll*) true ;; *) false ;; esac; }
# Process $1 sleeps: bpftrace, once it has printed "Attaching" (after
# compiling), sleeps only in its epoll loop, the probes attached.
sleeping() { [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = S ]; }

# Process $1 runs (a child that exited stays a zombie until waited for,
# and kill -0 still finds it).
alive() {
	state=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)
	[ -n "$state" ] && [ "$state" != Z ]
}

# Wait for process $1 up to 60 s after its SIGINT, then kill it: a peer
# that hangs on its way out must not hang the guest.
wait_bounded() {
	i=0
	while alive "$1" && [ $i -lt 600 ]; do
		i=$((i + 1))
		usleep 100000
	done
	if alive "$1"; then
		echo "peers: $peer did not exit 60 s after SIGINT; killed; its stack:" >&2
		cat "/proc/$1/stack" >&2 2>/dev/null
		kill -9 "$1" 2>/dev/null
	fi
	wait "$1" 2>/dev/null
}

# peer_wait DESCRIPTION CONDITION: poll CONDITION (a shell command) for
# up to 300 s (bpftrace compiles with LLVM under TCG); 1 if it never held.
peer_wait() {
	i=0
	until eval "$2"; do
		if [ $i -ge 3000 ] || ! alive "$peer_pid"; then
			echo "peers: $peer did not attach ($1): fds $(perf_fds $peer_pid)," \
				"wchan $(cat /proc/$peer_pid/wchan 2>/dev/null)," \
				"state $(cut -d' ' -f3 /proc/$peer_pid/stat 2>/dev/null); its output:" >&2
			cat "$PEERS/$peer.out" >&2
			cat "/proc/$peer_pid/stack" >&2 2>/dev/null
			# Not left running into the next peer's measurement.
			kill -INT "$peer_pid" 2>/dev/null
			wait_bounded "$peer_pid"
			return 1
		fi
		i=$((i + 1))
		usleep 100000
	done
}

# Fire one canary sched_migrate_task from CPU 0 (to CPU 1) and tell
# whether bpftrace $1 has it: btprint prints it; btcount prints its map
# on SIGUSR1.
bt_has_canary() {
	taskset 1 sh -c "echo 'tracepoint 1' >/sys/kernel/debug/migration_trace/bench"
	[ "$1" = btcount ] && kill -USR1 "$peer_pid"
	usleep 200000
	grep -qs -e '^@\[0, 1\]' -e 'orig_cpu=0 dest_cpu=1$' "$PEERS/$1.out"
}

peer_start() {
	peer=$1
	rm -f "$PEERS/$peer".*
	case $peer in
	rtracecmd)
		trace-cmd record -e $EV_WHY -o "$PEERS/rtracecmd.dat" \
			>"$PEERS/rtracecmd.out" 2>&1 &
		peer_pid=$!
		peer_wait "event enabled" \
			'[ "$(cat $PEER_TR/events/sched/sched_migrate_reason/enable)" = 1 ] &&
			 [ "$(cat $PEER_TR/tracing_on)" = 1 ]' ;;
	rperf)
		# 1024 pages a CPU: perf's default lost events of a storm.
		perf record -e $EV_WHY -a -m 1024 -o "$PEERS/rperf.data" \
			>"$PEERS/rperf.out" 2>&1 &
		peer_pid=$!
		peer_wait "a perf event per CPU, polled" \
			'[ "$(perf_fds $peer_pid)" -ge "$(nproc)" ] && polling $peer_pid' ;;
	rbt)
		bpftrace -e "$BT_WHY" >"$PEERS/rbt.out" 2>&1 &
		peer_pid=$!
		peer_wait "its BEGIN probe ran" 'grep -qs "^attached$" "$PEERS/rbt.out"' ;;
	tracecmd)
		# trace-cmd enables the event once its per-CPU readers run.
		trace-cmd record -e sched:sched_migrate_task -o "$PEERS/tracecmd.dat" \
			>"$PEERS/tracecmd.out" 2>&1 &
		peer_pid=$!
		peer_wait "event enabled" \
			'[ "$(cat $PEER_TR/events/sched/sched_migrate_task/enable)" = 1 ] &&
			 [ "$(cat $PEER_TR/tracing_on)" = 1 ]' ;;
	perf)
		perf record -e sched:sched_migrate_task -a -o "$PEERS/perf.data" \
			>"$PEERS/perf.out" 2>&1 &
		peer_pid=$!
		# One event per CPU, then its ring buffers.
		peer_wait "a perf event per CPU, polled" \
			'[ "$(perf_fds $peer_pid)" -ge "$(nproc)" ] && polling $peer_pid' ;;
	btcount|btprint)
		if [ $peer = btcount ]; then prog=$BT_COUNT; else prog=$BT_PRINT; fi
		bpftrace -e "$prog" >"$PEERS/$peer.out" 2>&1 &
		peer_pid=$!
		# Asleep after "Attaching" was once seen with the probe not yet
		# attached (a loaded host): attached is when it has counted a
		# canary, an event from CPU 0 to 1 (the checks count 1 to 0).
		peer_wait "Attaching, then asleep" \
			'grep -qs "^Attaching" "$PEERS/$peer.out" && sleeping $peer_pid' &&
		peer_wait "a canary event received" "bt_has_canary $peer" ;;
	esac
	rc=$?
	eval "pid_$peer=$peer_pid"
	# What attaching takes once announced (an ioctl or two): given time.
	sleep 1
	return $rc
}

# The bytes a peer has written so far (its output, its data files).
peer_bytes() {
	for f in "$PEERS/$1".*; do stat -c %s "$f"; done 2>/dev/null |
		awk '{ n += $1 } END { print n + 0 }'
}

# A reader behind the events it was given (bpftrace formats each one in
# user space, slowly under TCG) is let catch up, as a user would wait for
# it: until its output has not grown for a second (120 s at most).
peer_stop() {
	eval "stop_pid=\$pid_$1"
	i=0 last=-1
	while [ "$(peer_bytes "$1")" != "$last" ] && [ $i -lt 120 ]; do
		last=$(peer_bytes "$1")
		sleep 1
		i=$((i + 1))
	done
	kill -INT "$stop_pid" 2>/dev/null
	peer=$1 wait_bounded "$stop_pid"
}

# The text of a peer's events: what trace-cmd report or perf script
# print of its recording, btprint's output, or ftrace's trace file $2.
peer_text() {
	case $1 in
	tracecmd|rtracecmd) timeout 300 trace-cmd report -i "$PEERS/$1.dat" 2>"$PEERS/$1.report.err" ;;
	perf|rperf) timeout 300 perf script -i "$PEERS/$1.data" 2>"$PEERS/$1.script.err" ;;
	btprint) cat "$PEERS/btprint.out" ;;
	ftrace) cat "$2" ;;
	esac
}

# kv_fields K1 K2 K3: the values of keys K1, K2 and K3 of every line with
# a "K2=" word, from "key=value" words (ftrace, trace-cmd and perf print
# the event's format so; btprint prints the same keys).
kv_fields() {
	awk -v k1="$1" -v k2="$2" -v k3="$3" 'index(" " $0, " " k2 "=") {
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print v[k1], v[k2], v[k3]
	}'
}

# The PID, ORIG and DEST of every sched_migrate_task event.
peer_events() { peer_text "$@" | kv_fields pid orig_cpu dest_cpu; }

# The PID, CAUSE and REASON of every sched_migrate_reason event, as the
# tool printed them (names, from the event's print fmt).
peer_whys() { peer_text "$@" | kv_fields pid cause reason; }

# rbt's maps, printed when it stops: "@[1, 7]: 12", "@pid[312, 1, 7]: 3".
peer_why_counts() {
	sed -n -e 's/^@\[\([0-9]*\), \([0-9]*\)\]: \([0-9]*\)$/all \1 \2 \3/p' \
		-e 's/^@pid\[\([0-9]*\), \([0-9]*\), \([0-9]*\)\]: \([0-9]*\)$/\1 \2 \3 \4/p' "$PEERS/rbt.out"
}

# btcount's map, printed when it stops: "@[0, 1]: 12".
peer_pairs() {
	sed -n 's/^@\[\([0-9]*\), \([0-9]*\)\]: \([0-9]*\)$/\1 \2 \3/p' "$PEERS/btcount.out"
}

peer_lost() {
	case $1 in
	# trace-cmd record ends with each CPU's ring buffer statistics.
	tracecmd|rtracecmd) awk '/^ *overrun:/ { n += $2 } END { print n + 0 }' "$PEERS/$1.out" ;;
	# perf: "Processed N events and lost M chunks!"; LOST records.
	perf|rperf) sed -n 's/.*and lost \([0-9]*\) chunks.*/\1/p' "$PEERS/$1.script.err" "$PEERS/$1.out" |
		awk '{ n += $1 } END { print n + 0 }' ;;
	# bpftrace: "Lost N events" when its perf buffer was full.
	btprint) awk '/^Lost [0-9]+ events/ { n += $2 } END { print n + 0 }' "$PEERS/btprint.out" ;;
	*) echo 0 ;;
	esac
}
