#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Memory is taken by a write of buffer_size_kb, else on the first start,
# and given back by a reset; when it is not there, the write or the start
# fails with ENOMEM and leaves everything as it was, whichever allocation
# fails (fail-nth, each in turn), for the trace, its readers and the
# statistics; a retry then works.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
ktap_set_plan 14
FS=/sys/kernel/debug/failslab
# The buffers are for the online CPUs (mt_hotplug: not the possible ones).
NCPU_ONLINE=$(grep -c '^processor' /proc/cpuinfo)
# Large enough to stand out of the guest's background noise.
SIZE_KB=4096
WANT_KB=$((SIZE_KB * NCPU_ONLINE))

# Free memory in KiB, with the pages freed to the per-CPU lists (which
# MemFree leaves out).  The buffers may come from the page allocator or
# from vmalloc (kvmalloc), so free memory is what tells where they are.
mem_free() {
	awk '$1 == "pages" && $2 == "free" { n += $3 } $1 == "count:" { n += $2 }
	     END { print n * 4 }' /proc/zoneinfo
}

# Give the slab caches' free objects back, and with them what KASAN's
# quarantine holds of each cache (kmem_cache_shrink() flushes it): on the
# debug kernel the quarantine grows by megabytes over this test.
slabs_shrink() {
	for s in /sys/kernel/slab/*/shrink; do
		[ -w "$s" ] && echo 1 >"$s" 2>/dev/null
	done
	return 0
}

# Free memory once it holds still: what a reset freed may come back a
# moment later (vfree()'s lazy purge, KASAN's quarantine), and would hide
# the next allocation.  Reads every 0.2 s until two differ by less than
# 64 KiB, 5 s at most.
mem_free_settled() {
	local a b i=0
	slabs_shrink
	a=$(mem_free)
	while [ $i -lt 25 ]; do
		usleep 200000
		b=$(mem_free)
		[ $((b - a)) -lt 64 ] && [ $((a - b)) -lt 64 ] && break
		a=$b i=$((i + 1))
	done
	echo "$b"
}

# at_least WHAT KIB: "yes" if KIB >= WHAT, else the numbers.
at_least() { if [ "$2" -ge "$1" ]; then echo yes; else echo "$2 KiB < $1 KiB"; fi; }

# A "# NAME VALUE" line of migration_trace/stats.
stat_line() { awk -v n="$1" '$1 == "#" && $2 == n { print $3 }' "$MT_DIR/stats"; }

mt_reset
echo 0 >"$MS_DIR/reset"
check "a reset statistics without history resets again" "$(wr "$MS_DIR/reset" 0)" ok
check "after a reset no buffer is allocated" "$(stat_line buffer_bytes)" 0
# A write of buffer_size_kb takes the memory at once, so that the start
# is light: the start then takes little (its task list), no buffer.
free0=$(mem_free_settled)
echo $SIZE_KB >"$MT_DIR/buffer_size_kb"
free1=$(mem_free_settled)
taken=$(at_least $((WANT_KB * 9 / 10)) $((free0 - free1)))
check "a write of buffer_size_kb takes it per online CPU, before any start" \
	"$taken:$(stat_line buffer_bytes):$(mt_state)" "yes:$((WANT_KB * 1024)):0"
mt_start
free2=$(mem_free)
check "the start then takes no buffer" \
	"$(at_least $((free1 - WANT_KB / 4)) "$free2"):$(stat_line buffer_bytes):$(mt_state)" \
	"yes:$((WANT_KB * 1024)):1"
mt_stop
mt_reset
free2=$(mem_free_settled)
check "and the reset gives it back" \
	"$(at_least $((free0 - WANT_KB / 10)) "$free2"):$(stat_line buffer_bytes)" yes:0
# No write since the reset (the size stays): the first start allocates.
mt_start
free1=$(mem_free)
check "without a write since the reset, the start takes it per online CPU" \
	"$(at_least $((WANT_KB * 9 / 10)) $((free2 - free1))):$(stat_line buffer_bytes)" \
	"yes:$((WANT_KB * 1024))"
mt_stop
mt_reset
free2=$(mem_free_settled)
# At least 3600 rows of 40 counters of 8 bytes.  Memory freed earlier
# may come back in a burst while the start allocates (KASAN's quarantine
# gives back megabytes at once): up to three tries, one must see it all.
try=0
while [ $try -lt 3 ]; do
	[ $try -gt 0 ] && free2=$(mem_free_settled)
	echo 1 >"$MS_DIR/enable"
	free3=$(mem_free)
	echo 0 >"$MS_DIR/enable"
	echo 0 >"$MS_DIR/reset"
	free4=$(mem_free)
	[ $((free2 - free3)) -ge 1125 ] && break
	ktap_print_msg "try $((try + 1)): the start took $((free2 - free3)) KiB"
	try=$((try + 1))
done
check "the statistics' history is taken by a start, given back by a reset" \
	"$(at_least 1125 $((free2 - free3))):$(at_least $((free2 - 512)) "$free4")" yes:yes

# More than the machine has: a clear ENOMEM, no OOM kill, the buffers
# of before kept as they were (refused before any allocation: see
# mt_hotplug).
echo 1024 >"$MT_DIR/buffer_size_kb"
free3=$(mem_free_settled)
check "1 GiB per CPU: the write fails with ENOMEM" \
	"$(wr "$MT_DIR/buffer_size_kb" 1048576)" ENOMEM
kept=$(at_least $((free3 - WANT_KB / 10)) "$(mem_free)")
check "the size and the buffers stay, the trace is stopped and empty" \
	"$(cat "$MT_DIR/buffer_size_kb"):$(stat_line buffer_bytes):$(mt_state):$(
	 grep -vc '^#' "$MT_DIR/trace"):$kept" \
	"1024:$((1024 * NCPU_ONLINE * 1024)):0:0:yes"
check "the start then works with them" "$(wr "$MT_DIR/enable" 1)" ok
mt_reset

# Each allocation of a start, a read or an open fails in turn, slab or
# page, until the call runs without one failing (fail-nth).
FPA=/sys/kernel/debug/fail_page_alloc
echo N >"$FS/ignore-gfp-wait"
echo 0 >"$FS/verbose"
echo N >"$FPA/ignore-gfp-wait"
echo N >"$FPA/ignore-gfp-highmem"
echo 0 >"$FPA/min-order"
echo 0 >"$FPA/verbose"
bad=0 enomem=0 tried=0

# fail_each WHAT FILE DATA OKPATTERN: one call per allocation N = 1, 2, ...
# Each result must match OKPATTERN ("ok ENOMEM" and the like), and check_$WHAT
# must then find the state the result implies; it resets what it started.
fail_each() {
	n=1
	while [ $n -le 300 ]; do
		r=$("$HELPER" fail-nth $n "$2" "$3")
		tried=$((tried + 1))
		case " $4 " in
		*" ${r% *} "*) ;;
		*) bad=$((bad + 1)); ktap_print_msg "  $1, allocation $n: $r" ;;
		esac
		[ "${r% *}" = ENOMEM ] && enomem=$((enomem + 1))
		if ! "check_$1" "${r% *}"; then
			bad=$((bad + 1))
			ktap_print_msg "  $1, allocation $n: $r, then a bad state"
		fi
		if [ "${r#* }" = 0 ]; then
			ktap_print_msg "  $1: $n calls, free memory $(mem_free) KiB"
			return
		fi
		n=$((n + 1))
	done
	bad=$((bad + 1))
	ktap_print_msg "  $1: still allocating after 300"
}
# A failed start leaves the trace stopped and empty; a good one runs.
check_trace_start() {
	st=$(mt_state)
	mt_reset
	[ "$1:$st" = ok:1 ] || [ "$1:$st" = ENOMEM:0 ]
}
check_stat_start() {
	st=$(cat "$MS_DIR/enable")
	echo 0 >"$MS_DIR/enable"
	echo 0 >"$MS_DIR/reset"
	[ "$1:$st" = ok:1 ] || [ "$1:$st" = ENOMEM:0 ]
}
# After a failed open or read, the next one works (no EBUSY left behind).
check_trace_read() { [ "$("$HELPER" read "$MT_DIR/trace")" = ok ]; }
check_pipe_read() {
	[ "$("$HELPER" pipe-nonblock "$MT_DIR/trace_pipe" | cut -d' ' -f1)" = EAGAIN ]
}
check_stat_read() { [ "$("$HELPER" read "$MS_DIR/stat")" = ok ]; }
# A write of buffer_size_kb that fails leaves the size and the buffers of
# before (32 KiB); one that works has the new ones.
check_size_write() {
	st="$(cat "$MT_DIR/buffer_size_kb") $(stat_line buffer_bytes)"
	mt_reset
	echo 32 >"$MT_DIR/buffer_size_kb"
	[ "$1:$st" = "ok:64 $((64 * 1024 * NCPU_ONLINE))" ] ||
		[ "$1:$st" = "ENOMEM:32 $((32 * 1024 * NCPU_ONLINE))" ]
}

fail_all() {
	fail_each trace_start "$MT_DIR/enable" 1 "ok ENOMEM"
	fail_each stat_start "$MS_DIR/enable" 1 "ok ENOMEM"
	mt_start
	fail_each pipe_read "$MT_DIR/trace_pipe" - "ok EAGAIN ENOMEM"
	mt_stop
	fail_each trace_read "$MT_DIR/trace" - "ok ENOMEM"
	echo 1 >"$MS_DIR/enable"
	fail_each stat_read "$MS_DIR/stat" - "ok ENOMEM"
	echo 0 >"$MS_DIR/enable"
	echo 0 >"$MS_DIR/reset"
	mt_reset
	echo 32 >"$MT_DIR/buffer_size_kb"
	fail_each size_write "$MT_DIR/buffer_size_kb" 64 "ok ENOMEM"
	mt_reset
}
# Twice: the first round's failure paths also grow what the kernel keeps
# for good (slab caches, KASAN's stack depot: megabytes on the debug
# kernel, once), so what a round leaks shows in the second.
fail_all
free5=$(mem_free_settled)
fail_all
free6=$(mem_free_settled)
ktap_print_msg "$tried calls with one allocation failing, $enomem failed with ENOMEM"
check "every call either works or fails with ENOMEM, leaving a good state" "$bad" 0
check "some calls did fail" "$([ "$enomem" -ge 10 ] && echo yes)" yes
check "afterwards nothing is kept" "$(at_least $((free5 - WANT_KB / 10)) "$free6")" yes
check "a retry after the failures works" "$(wr "$MT_DIR/enable" 1):$(mt_state)" ok:1
mt_reset
# The next test gets the default size, not fail_all's 64 KiB.
echo 1024 >"$MT_DIR/buffer_size_kb"

ktap_finished
