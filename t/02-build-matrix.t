#!/bin/bash
# The series builds in every configuration of the matrix (both options,
# each alone, both off, !SMP): the objects it touches compile with W=1
# and no warning (the pristine objects have none either), the hooks are
# called where an option is on and compile away where none is.
. "$(dirname "$0")/lib.sh"
configs="on trace stat off nosmp"
echo "1..$(( 3 * 5 + 1 ))"
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
	on|trace|stat)
		ok "$c: the scheduler calls the hook" \
			"nm '$dir/kernel/sched/core.o' | grep -q ' U __mt_migrate_task'" ;;
	*)
		ok "$c: no object refers to the hooks" \
			"! nm $(for o in $objs; do printf '%s ' "$dir/$o"; done) 2>/dev/null |
			 grep -qw -e mt_hooks_key -e __mt_migrate_task -e __mt_copy_process -e __mt_set_task_comm" ;;
	esac
done
