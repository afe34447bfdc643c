#!/bin/bash
# Both configurations build: with the options on, the scheduler calls the
# hook; with them off (build/kernel-off), the objects our edits touch
# compile and the hooks compile away.
. "$(dirname "$0")/lib.sh"
objs="kernel/sched/core.o kernel/sched/fair.o kernel/sched/build_policy.o kernel/fork.o fs/exec.o"
echo "1..4"
n=0
ok() { if (eval "$2"); then echo "ok $((++n)) - $1"; else echo "not ok $((++n)) - $1"; fi; }
ok "options-on kernel built (bzImage)" "[ -s '$B/kernel/arch/x86/boot/bzImage' ]"
ok "options-on: core.o calls __mt_migrate_task" \
	"nm '$B/kernel/kernel/sched/core.o' | grep -q ' U __mt_migrate_task'"
ok "options-off: all touched objects built" \
	"grep -q '^# CONFIG_SNSC_LITE_MIGRATION_TRACE is not set' '$B/kernel-off/.config' &&
	 for o in $objs; do [ -s '$B/kernel-off/'\$o ] || exit 1; done"
ok "options-off: no object refers to the hooks" \
	"! nm \$(for o in $objs; do echo '$B/kernel-off/'\$o; done) | grep -qw -e mt_hooks_key -e __mt_migrate_task -e __mt_copy_process -e __mt_set_task_comm"
