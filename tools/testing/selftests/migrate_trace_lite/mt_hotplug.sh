#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The buffers follow the CPUs online, not the possible ones.  On a machine
# with possible CPUs offline (booted with maxcpus=), a write of
# buffer_size_kb takes one buffer per online CPU; a CPU brought online
# while the trace runs gets
# its buffer before it runs anything, and its moves, to it and from it,
# are in the trace, equal to ftrace's; once offline again its records
# are still read.  A request for more than the memory available is
# refused with ENOMEM, one message, and nothing changed.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
SYS=/sys/devices/system/cpu
# The first possible CPU that is offline, and can be brought online.
OFF=$(awk -F, '{ split($1, r, "-"); print r[1] }' "$SYS/offline")
if [ -z "$OFF" ] || [ ! -w "$SYS/cpu$OFF/online" ]; then
	ktap_skip_all "no offline CPU to bring online: boot with maxcpus= below the CPUs"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 15
NON=$(grep -c '^processor' /proc/cpuinfo)
# Large enough to stand out of the guest's background noise.
SIZE_KB=4096

# Free memory in KiB, with the pages of the per-CPU lists (see mt_alloc).
mem_free() {
	awk '$1 == "pages" && $2 == "free" { n += $3 } $1 == "count:" { n += $2 }
	     END { print n * 4 }' /proc/zoneinfo
}

# Free memory once it holds still: two reads 0.2 s apart within 64 KiB.
mem_free_settled() {
	local a b i=0
	a=$(mem_free)
	while [ $i -lt 25 ]; do
		usleep 200000
		b=$(mem_free)
		[ $((b - a)) -lt 64 ] && [ $((a - b)) -lt 64 ] && break
		a=$b i=$((i + 1))
	done
	echo "$b"
}

# A "# NAME VALUE" line of migration_trace/stats.
stat_line() { awk -v n="$1" '$1 == "#" && $2 == n { print $3 }' "$MT_DIR/stats"; }

mt_reset
# ftrace first: its buffers are not counted, and it sees every task ours does.
ftrace_start
free0=$(mem_free_settled)
# The write allocates the buffers, the start then none (mt_alloc).
echo $SIZE_KB >"$MT_DIR/buffer_size_kb"
mt_start
free1=$(mem_free)
took=$((free0 - free1))
ktap_print_msg "  $NON CPUs online of $(($(awk -F- '{ print $NF }' "$SYS/possible") + 1))" \
	"possible; the write and the start took $took KiB"
# One buffer per online CPU, not one more: what another buffer would add.
check "buffer_size_kb takes it per online CPU, not per possible CPU" \
	"$([ $took -ge $((SIZE_KB * NON * 9 / 10)) ] &&
	   [ $took -lt $((SIZE_KB * NON + SIZE_KB / 2)) ] && echo yes || echo "$took KiB")" yes
check "stats: a buffer for each online CPU, and their bytes" \
	"$(stat_line buffer_cpus) $(stat_line buffer_bytes)" "$NON $((NON * SIZE_KB * 1024))"

# A CPU comes online while the trace runs.  A bring-up that never ends
# (its delay loop's calibration waiting for jiffies, see the Makefile's
# guest-hotplug) fails here, and ends the test, instead of the guest.
wr "$SYS/cpu$OFF/online" 1 >"$TMPD/online" &
if [ "$(wait_for $! 120)" = hung ]; then
	ktap_test_fail "CPU $OFF comes online while tracing"
	ktap_exit_fail_msg "CPU $OFF did not come online in 120 s"
fi
check "CPU $OFF comes online while tracing" "$(cat "$TMPD/online")" ok
check "it has a buffer of its own" \
	"$(stat_line buffer_cpus) $(stat_line buffer_bytes)" \
	"$((NON + 1)) $(((NON + 1) * SIZE_KB * 1024))"
# A task is moved to it by its affinity, runs there, and is moved back.
# It is on CPU 0 first: it is born on its parent's CPU, which may be the
# new CPU already, and then it would never move to it.
sh -c "taskset -p -c 0 \$\$ >/dev/null
	taskset -p -c $OFF \$\$ >/dev/null
	i=0; while [ \$i -lt 2000 ]; do i=\$((i + 1)); done
	taskset -p -c 0 \$\$ >/dev/null
	i=0; while [ \$i -lt 200 ]; do i=\$((i + 1)); done" &
pid=$!
check "the task on CPU $OFF ends" "$(wait_for $pid 60)" ended
wait
mt_stop
ftrace_stop "$TMPD/ftrace"
check "the trace ran on: no record dropped, none without a buffer" \
	"$(mt_stat_total dropped) $(stat_line nobuf)" "0 0"
mt_migrations "$MT_DIR/trace" >"$TMPD/moves_live"
check "the task's moves to CPU $OFF and from it are in the trace" \
	"$(awk -v p=$pid -v c="$OFF" '$1 == p && $3 == c { t++ } $1 == p && $2 == c { f++ }
	       END { print (t > 0 && f > 0) ? "yes" : "to " t + 0 ", from " f + 0 }' \
	       "$TMPD/moves_live")" yes

# Offline again: the CPU's records stay, and are read.
check "CPU $OFF goes offline again" "$(wr "$SYS/cpu$OFF/online" 0)" ok
mt_save "$TMPD/trace"
check "its buffer is kept while it is offline" "$(stat_line buffer_cpus)" $((NON + 1))
check "every line of the trace is well formed" "$(mt_malformed "$TMPD/trace" | head -3)" ""
mt_migrations "$TMPD/trace" >"$TMPD/moves"
check "its records are read after it went offline" \
	"$(cmp -s "$TMPD/moves" "$TMPD/moves_live" && [ -s "$TMPD/moves" ] && echo same)" same
mt_ftrace_compare "$TMPD/trace" "$TMPD/ftrace"
mt_reset

# More than is available: the write is refused at once, one message,
# nothing taken, the size as it was.
MSG='migrate_trace_lite: buffers of 1048576 KiB for .* available memory .*refused'
n0=$(dmesg | grep -c "$MSG")
r=$(wr "$MT_DIR/buffer_size_kb" 1048576)
check "1 GiB per online CPU: ENOMEM, stopped, no buffer, one message" \
	"$r $(mt_state) $(stat_line buffer_cpus) $(cat "$MT_DIR/buffer_size_kb")" \
	"ENOMEM 0 0 $SIZE_KB"
ktap_print_msg "  $(dmesg | grep 'migrate_trace_lite: ' | tail -1)"
check "one message says the request exceeds the available memory" \
	"$(($(dmesg | grep -c "$MSG") - n0))" 1
echo 1024 >"$MT_DIR/buffer_size_kb"
mt_reset
ktap_finished
