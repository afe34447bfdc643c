#!/bin/sh
# The last act of the topology job (from /init, results already written):
# trace with the dump on oops armed by the boot parameter, log something
# on every CPU, write known marks, and panic.  The host finds the dump in
# the console log (t/24-panic-dump.t).
MT=/sys/kernel/debug/migration_trace
echo 0 >$MT/reset
echo 64 >$MT/buffer_size_kb
echo 1 >$MT/overwrite
echo 1 >$MT/enable
/guest/mt_helper bench-affinity 2000 4 >/dev/null
cpu=0
while [ $cpu -lt "$(nproc)" ]; do
	taskset -c $cpu sh -c "echo $((0x6000 + cpu)) >$MT/mark"
	cpu=$((cpu + 1))
done
i=1
while [ $i -le 20 ]; do
	echo $((0x7000 + i)) >$MT/mark
	i=$((i + 1))
done
# Through the kernel's log, not the tty: a tty write can still be on its
# way out of the serial port when the panic prints, and the two mix.  At
# level 3, so that the console (loglevel=4) shows it.
echo "<3>mt-panic: marks 0x00007001 to 0x00007014 written by pid $$ on cpu $(awk '{ print $39 }' /proc/$$/stat)" >/dev/kmsg
echo c >/proc/sysrq-trigger
