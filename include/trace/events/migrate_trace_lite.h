/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The why of a task migration as a trace event: sched_migrate_reason,
 * fired by the migration hooks (kernel/migrate_trace_lite.c) for every
 * move they see, with its cause and reason.
 * The names come from the lists of include/linux/migrate_trace_lite.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE migrate_trace_lite

#if !defined(_TRACE_MIGRATE_TRACE_LITE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MIGRATE_TRACE_LITE_H

#include <linux/migrate_trace_lite.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

int mt_event_reg(void);
void mt_event_unreg(void);

/*
 * The pairs __print_symbolic() prints, from the lists of
 * include/linux/migrate_trace_lite.h: their numbers are spelled out, so
 * the format file that trace-cmd, perf and Perfetto read has numbers, not
 * enumerators for TRACE_DEFINE_ENUM() to resolve.  The enumerator is
 * passed on and dropped by MT_PAIR()'s variable arguments.  Both are
 * defined for the event below only, in every pass of define_trace.h over
 * this header.
 */
#undef MT_EM
#undef MT_PAIR
#define MT_PAIR(n, name, ...)	{ n, name }
#define MT_EM(e, n, name)	MT_PAIR(n, name, e)

/*
 * Tracepoint for a task's move to another CPU, with why: the scheduler
 * function that moved it (cause) and what inside it chose the CPU
 * (reason, "none" if nothing finer is known).  It fires for every move
 * the hooks see, before its set_task_cpu(), so right before
 * sched_migrate_task for the same move, and also for the placements of
 * new tasks, which have no sched_migrate_task.  Enabling it turns the
 * migration hooks on (their static key), disabling it turns them off
 * again unless another of their consumers holds them.
 */
TRACE_EVENT_FN(sched_migrate_reason,
	       TP_PROTO(struct task_struct *p, int dest_cpu, unsigned int cause,
			unsigned int reason),
	       TP_ARGS(p, dest_cpu, cause, reason),
	       TP_STRUCT__entry(__array(char, comm, TASK_COMM_LEN)
				__field(pid_t, pid)
				__field(int, orig_cpu)
				__field(int, dest_cpu)
				__field(unsigned int, cause)
				__field(unsigned int, reason)),
	       TP_fast_assign(memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
			      __entry->pid = p->pid;
			      __entry->orig_cpu = task_cpu(p);
			      __entry->dest_cpu = dest_cpu;
			      __entry->cause = cause;
			      __entry->reason = reason),
	       TP_printk("comm=%s pid=%d orig_cpu=%d dest_cpu=%d cause=%s reason=%s",
			 __entry->comm, __entry->pid, __entry->orig_cpu,
			 __entry->dest_cpu,
			 __print_symbolic(__entry->cause, MT_CAUSES),
			 __print_symbolic(__entry->reason, { 0, "none" },
					  MT_REASONS)),
	       mt_event_reg, mt_event_unreg);

#undef MT_EM
#undef MT_PAIR

#endif /* _TRACE_MIGRATE_TRACE_LITE_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
