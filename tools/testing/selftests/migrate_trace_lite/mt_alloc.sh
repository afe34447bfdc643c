#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Memory is taken on the first start and given back by a reset; when it
# is not there, a start fails with ENOMEM and leaves everything as it was,
# whichever allocation fails (fail-nth, each in turn), for the trace, its
# readers and the statistics; a retry then works.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
ktap_set_plan 11
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

mt_reset
echo 0 >"$MS_DIR/reset"
check "a reset statistics without history resets again" "$(wr "$MS_DIR/reset" 0)" ok
echo $SIZE_KB >"$MT_DIR/buffer_size_kb"
free0=$(mem_free_settled)
mt_start
free1=$(mem_free)
check "a start takes buffer_size_kb per online CPU" \
	"$(at_least $((WANT_KB * 9 / 10)) $((free0 - free1)))" yes
mt_stop
mt_reset
free2=$(mem_free_settled)
check "and the reset gives it back" "$(at_least $((free0 - WANT_KB / 10)) "$free2")" yes
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

# More than the machine has: a clear ENOMEM, no OOM kill, nothing kept
# (refused before any allocation: see mt_hotplug).
echo 1048576 >"$MT_DIR/buffer_size_kb"
check "1 GiB per CPU: the start fails with ENOMEM" "$(wr "$MT_DIR/enable" 1)" ENOMEM
kept=$(at_least $((free0 - WANT_KB / 10)) "$(mem_free)")
check "the trace is stopped and holds nothing" \
	"$(mt_state):$(grep -vc '^#' "$MT_DIR/trace"):$kept" "0:0:yes"
echo 1024 >"$MT_DIR/buffer_size_kb"
check "with 1 MiB the start then works" "$(wr "$MT_DIR/enable" 1)" ok
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

ktap_finished
