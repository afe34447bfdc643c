#!/bin/bash
# The series builds in every configuration of the matrix (both options,
# each alone, both off, !SMP, the core-scheduling/NUMA/sched_ext one, and
# 32-bit i386): the objects it touches compile with W=1 and no warning
# (the pristine objects have none either); where an option is on, every
# object that holds hooks calls them (core.o, fair.o, build_policy.o for
# rt.c/deadline.c/ext.c, fork.o, exec.o); where none is, no object refers
# to them; trace, full and i386 build the kernel API's sample module.
. "$(dirname "$0")/lib.sh"
configs="on trace stat off nosmp full i386"
hooked="kernel/sched/core.o:__mt_migrate_task kernel/sched/fair.o:__mt_migrate_task
	kernel/sched/build_policy.o:__mt_migrate_task kernel/fork.o:__mt_copy_process
	fs/exec.o:__mt_set_task_comm"
echo "1..$(( 1 + 7 * 2 + 4 * 5 + 2 + 3 ))"
n=0
ok() { if (eval "$2"); then echo "ok $((++n)) - $1"; else echo "not ok $((++n)) - $1"; fi; }
ok "the test kernel built (bzImage)" "[ -s '$B/kernel/arch/x86/boot/bzImage' ]"
for c in $configs; do
	dir=$B/matrix-$c
	log=$OUT/matrix/$c.log
	objs=$(tr -s " \n" "  " <"$OUT/matrix/$c.objs" 2>/dev/null)
	ok "$c: every touched object built" \
		"[ -n '$objs' ] && for o in $objs; do [ -s '$dir/'\$o ] || exit 1; done"
	ok "$c: no warning with W=1" \
		"[ -s '$log' ] && ! grep -v '^\.config:' '$log' | grep -q -e 'warning:' -e 'error:'"
	case $c in
	on|trace|stat|full)
		for h in $hooked; do
			ok "$c: ${h%%:*} calls ${h#*:}" "nm '$dir/${h%%:*}' | grep -q ' U ${h#*:}\$'"
		done ;;
	off|nosmp)
		ok "$c: no object refers to the hooks" \
			"! nm $(for o in $objs; do printf '%s ' "$dir/$o"; done) 2>/dev/null |
			 grep -qw -e mt_hooks_key -e __mt_migrate_task -e __mt_copy_process -e __mt_set_task_comm" ;;
	esac
	case $c in
	trace|full|i386)
		s=samples/migrate_trace_lite/migrate_trace_lite_sample.o
		ok "$c: the sample module built, a user of mt_trace_enable() and mt_trace_mark()" \
			"grep -qx '$s' '$OUT/matrix/$c.samples' &&
			 nm '$dir/$s' | grep -q ' U mt_trace_enable\$' &&
			 nm '$dir/$s' | grep -q ' U mt_trace_mark\$'" ;;
	esac
done
