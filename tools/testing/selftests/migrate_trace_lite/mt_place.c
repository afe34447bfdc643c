// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads for the migrate_trace_lite selftests whose every move is known
 * (mt_wakeups, mt_balance, mt_smt): placements at wakeup, fork and exec,
 * and the balancer's kinds of balance, each leaving the scheduler one
 * choice.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "mt_helper.h"

/*
 * Workloads whose every move is known.  The scheduler gets one choice
 * only: the tasks are pinned where it matters, CPUs are kept busy by
 * spinners or left idle, and a task is woken only once it sleeps.  The
 * moves to assert lie between the marks BEGIN and END.
 */

/* A page the children share with their parent: flags, 0 until raised. */
static int *shared_flags(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

static int flag(int *f)
{
	return __atomic_load_n(f, __ATOMIC_RELAXED);
}

static void raise_flag(int *f)
{
	__atomic_store_n(f, 1, __ATOMIC_RELAXED);
}

/*
 * A CFS task spinning on the CPUs of LIST at nice NICE until *STOP, or
 * until its parent dies.  A movable one (DST >= 0) that finds itself on
 * CPU DST raises STOP[2]; once that is raised, each movable one keeps to
 * the CPU it is on: the balance a workload sets up moves one of them,
 * once, however late its parent notices.  Returns once it spins there.
 */
static pid_t spin_task(const char *list, int nice, int *stop, int dst)
{
	pid_t pid = fork();
	int kept = 0;

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin_list(0, list);
		if (setpriority(PRIO_PROCESS, 0, nice))
			die("setpriority");
		while (!flag(stop)) {
			if (dst < 0 || kept)
				continue;
			if (sched_getcpu() == dst)
				raise_flag(&stop[2]);
			if (flag(&stop[2])) {
				pin(0, sched_getcpu());
				kept = 1;
			}
		}
		_exit(0);
	}
	if (!strchr(list, ',') && !strchr(list, '-'))
		wait_on_cpu(pid, atoi(list), 1000);
	return pid;
}

static pid_t spinner(const char *list, int nice, int *stop)
{
	return spin_task(list, nice, stop, -1);
}

/* Spinners on each CPU of LIST ("-": none); their pids into PIDS. */
static int spinners(const char *list, pid_t *pids, int max, int *stop)
{
	char buf[256], *tok, *save;
	int n = 0;

	if (!strcmp(list, "-"))
		return 0;
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok && n < max;
	     tok = strtok_r(NULL, ",", &save))
		pids[n++] = spinner(tok, 0, stop);
	return n;
}

static void reap(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
}

enum { WK_CFS, WK_FIFO, WK_DL };

/*
 * The task a wakeup places: forked where its parent runs (its recently
 * used CPU), it moves itself to PREV (if not there), takes its class,
 * reports on @back and sleeps in a read of @go, or until a timer it
 * armed first (TIMER_MS) sends it SIGUSR1.  Woken, it reports again and
 * sleeps until killed.  wakee_asleep() then gives it the CPUs of MASK:
 * asleep, pinned until then, neither the balancer nor a delayed dequeue
 * (a CFS task that slept ahead of its share stays queued until picked)
 * can have moved it.
 */
struct wakee {
	pid_t pid;
	int go, back;
};

static void wakee_spawn(struct wakee *w, const char *fork_cpus, const char *prev,
			int kind, int timer_ms)
{
	int go[2], back[2];
	char byte = 0;

	pin_list(0, fork_cpus);
	if (pipe(go) || pipe(back))
		die("pipe");
	w->pid = fork();
	if (w->pid < 0)
		die("fork");
	if (w->pid == 0) {
		sigset_t usr1;
		timer_t timer;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		if (timer_ms) {
			struct sigevent sev = {
				.sigev_notify = SIGEV_SIGNAL,
				.sigev_signo = SIGUSR1,
			};
			struct itimerspec its = {
				.it_value = { timer_ms / 1000, (timer_ms % 1000) * 1000000L },
			};

			/* Its hrtimer is on this CPU, busy with this task. */
			sigprocmask(SIG_BLOCK, &usr1, NULL);
			if (timer_create(CLOCK_MONOTONIC, &sev, &timer) ||
			    timer_settime(timer, 0, &its, NULL))
				die("timer");
		}
		pin_list(0, prev);
		if (kind == WK_FIFO) {
			set_fifo(0, 10);
		} else if (kind == WK_DL) {
			/*
			 * Not pinned, but still on PREV.  A budget far above
			 * its needs: under TCG a stalled vCPU's lost time is
			 * charged to the task that runs, and a throttled one
			 * would be pushed elsewhere a period later.
			 */
			pin_list(0, NULL);
			set_dl(0, 300000, 1000000, 1000000);
		}
		if (write(back[1], &byte, 1) != 1)
			_exit(1);
		if (timer_ms ? sigwaitinfo(&usr1, NULL) != SIGUSR1 :
			       read(go[0], &byte, 1) != 1)
			_exit(1);
		if (write(back[1], &byte, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(go[0]);
	close(back[1]);
	w->go = go[1];
	w->back = back[0];
	if (read(w->back, &byte, 1) != 1)
		die("wakee");
}

/* Once the wakee sleeps, and has left its runqueue: the CPUs of MASK (all if NULL). */
static void wakee_asleep(struct wakee *w, const char *mask)
{
	wait_gone_to_sleep(w->pid);
	if (mask)
		pin_list(w->pid, mask);
}

/* Wait for the wakee's report of its wakeup. */
static void wakee_woken(struct wakee *w)
{
	char byte;

	if (read(w->back, &byte, 1) != 1)
		die("wakee woken");
}

static void wakee_end(struct wakee *w)
{
	kill(w->pid, SIGKILL);
	waitpid(w->pid, NULL, 0);
	close(w->go);
	close(w->back);
}

/* A task sleeping on CPU, woken by a write to the returned fd: it reports back on *BACK. */
static pid_t kicker(int cpu, int *kick, int *back)
{
	int k[2], b[2];
	char byte = 0;
	pid_t pid;

	if (pipe(k) || pipe(b))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin(0, cpu);
		while (read(k[0], &byte, 1) == 1 && write(b[1], &byte, 1) == 1)
			;
		_exit(0);
	}
	*kick = k[1];
	*back = b[0];
	if (write(*kick, &byte, 1) != 1 || read(*back, &byte, 1) != 1)
		die("kicker");
	return pid;
}

/*
 * wakeup FORK PREV MASK WAKER SPINNERS KICK ROUNDS MARK: a synchronous
 * wakeup (a pipe write) from the CPU WAKER, ROUNDS times, of a fresh task
 * each time: forked on FORK, asleep on PREV, allowed on MASK.  SPINNERS
 * (a CPU list, "-" for none) run a spinner each, from 300 ms before the
 * first round; KICK (-1: none) is a CPU where a task runs and goes back
 * to sleep just before each wakeup, so that its core is seen idle.
 * Round R is between marks MARK + 2R and MARK + 2R + 1.  Prints each
 * round's task.
 */
static int cmd_wakeup(int argc, char **argv)
{
	int *stop = shared_flags();
	int rounds, kick_cpu, kick = -1, kback = -1, n, r;
	pid_t spin[64], kpid = 0, woken[64];
	unsigned long base;
	struct wakee w;
	char byte = 0;

	if (argc != 8)
		return 2;
	kick_cpu = atoi(argv[5]);
	rounds = atoi(argv[6]);
	if (rounds > 64)
		return 2;
	base = strtoul(argv[7], NULL, 0);
	n = spinners(argv[4], spin, 64, stop);
	if (kick_cpu >= 0)
		kpid = kicker(kick_cpu, &kick, &kback);
	usleep(300000);
	for (r = 0; r < rounds; r++) {
		wakee_spawn(&w, argv[0], argv[1], WK_CFS, 0);
		pin_list(0, argv[3]);
		wakee_asleep(&w, argv[2]);
		if (kick >= 0) {
			if (write(kick, &byte, 1) != 1 || read(kback, &byte, 1) != 1)
				die("kick");
			wait_gone_to_sleep(kpid);
		}
		woken[r] = w.pid;
		mark(base + 2 * r);
		if (write(w.go, &byte, 1) != 1)
			die("wake");
		wakee_woken(&w);
		mark(base + 2 * r + 1);
		wakee_end(&w);
	}
	raise_flag(stop);
	reap(spin, n);
	if (kpid)
		reap(&kpid, 1);
	/* Only now: a reader of the output woken earlier could run anywhere. */
	for (r = 0; r < rounds; r++)
		printf("%d\n", woken[r]);
	return 0;
}

/*
 * The CPUs of "place": the waker's, an idle one, the one the task sleeps
 * on (busy when it is woken).
 */
#define P_W	"0"
#define P_I	"1"
#define P_B	"2"

/*
 * A task of class KIND (WK_FIFO or WK_DL) that runs on CPU B until *STOP:
 * the one a woken RT or deadline task may not preempt.
 */
static pid_t rival(int kind, int *stop)
{
	int ready[2];
	char byte = 0;
	pid_t pid;

	if (pipe(ready))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin(0, atoi(P_B));
		if (kind == WK_FIFO) {
			set_fifo(0, 50);
		} else {
			/* All of B, never throttled; on B, allowed everywhere. */
			pin_list(0, NULL);
			set_dl(0, 100000, 100000, 100000);
		}
		if (write(ready[1], &byte, 1) != 1)
			_exit(1);
		while (!flag(stop))
			;
		_exit(0);
	}
	if (read(ready[0], &byte, 1) != 1)
		die("rival");
	close(ready[0]);
	close(ready[1]);
	return pid;
}

/*
 * place-wake CASE BEGIN END: one wakeup whose placement is known, of a
 * task asleep on CPU B (busy: a spinner, or for "rt" and "dl" a task of
 * their class that it may not preempt), allowed on CPUs I and B:
 *   affine  woken by a timer it armed on the idle CPU I: the waker's CPU
 *           is idle (wake_affine);
 *   rt      SCHED_FIFO, woken from W: the lowest runqueue (rt_lowest_rq);
 *   dl      SCHED_DEADLINE, woken from W: a later runqueue (dl_later_rq).
 *           Deadline tasks may not be pinned (admission control): both
 *           are allowed everywhere, and only got to B before they took
 *           their class; the later runqueue is one of the free CPUs.
 * Prints the task's pid.
 */
static int cmd_place_wake(int argc, char **argv)
{
	int *stop = shared_flags();
	int kind = WK_CFS, timer_ms = 0;
	pid_t other;
	struct wakee w;
	char byte = 0;

	if (argc != 3)
		return 2;
	if (!strcmp(argv[0], "affine"))
		timer_ms = 300;
	else if (!strcmp(argv[0], "rt"))
		kind = WK_FIFO;
	else if (!strcmp(argv[0], "dl"))
		kind = WK_DL;
	else
		return 2;

	other = kind == WK_CFS ? spinner(P_B, 0, stop) : 0;
	wakee_spawn(&w, kind == WK_CFS ? P_I : P_B, P_B, kind, timer_ms);
	pin(0, atoi(P_W));
	if (kind != WK_CFS)
		other = rival(kind, stop);
	wakee_asleep(&w, kind == WK_DL ? NULL : P_I "," P_B);
	mark(strtoul(argv[1], NULL, 0));
	if (!timer_ms && write(w.go, &byte, 1) != 1)
		die("wake");
	wakee_woken(&w);
	mark(strtoul(argv[2], NULL, 0));
	wakee_end(&w);
	raise_flag(stop);
	reap(&other, 1);
	printf("%d\n", w.pid);
	return 0;
}

/*
 * place-fork BEGIN END: a fork from CPU W, busy with the parent, allowed
 * on W and the idle CPU I: fork balancing places the child on I
 * (slow_path).  Prints the child's pid.
 */
static int cmd_place_fork(int argc, char **argv)
{
	int back[2];
	char byte = 0;
	pid_t pid;

	if (argc != 2)
		return 2;
	pin(0, atoi(P_W));
	pin_list(0, P_W "," P_I);
	if (pipe(back))
		die("pipe");
	mark(strtoul(argv[0], NULL, 0));
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (write(back[1], &byte, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	if (read(back[0], &byte, 1) != 1)
		die("child");
	mark(strtoul(argv[1], NULL, 0));
	printf("%d\n", pid);
	reap(&pid, 1);
	return 0;
}

/*
 * place-exec BEGIN END: an exec on CPU W, where a spinner runs too, by a
 * task allowed on W and the idle CPU I: exec balancing moves it to I
 * (exec_balance).  Prints its pid.
 */
static int cmd_place_exec(int argc, char **argv)
{
	int *stop = shared_flags();
	int go[2], back[2];
	char byte = 0;
	pid_t busy, pid;

	if (argc != 2)
		return 2;
	busy = spinner(P_W, 0, stop);
	pin(0, atoi(P_W));
	if (pipe(go) || pipe(back))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (write(back[1], &byte, 1) != 1 || read(go[0], &byte, 1) != 1)
			_exit(1);
		pin_list(0, P_W "," P_I);
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (read(back[0], &byte, 1) != 1)
		die("child");
	wait_gone_to_sleep(pid);
	mark(strtoul(argv[0], NULL, 0));
	if (write(go[1], &byte, 1) != 1)
		die("go");
	waitpid(pid, NULL, 0);
	mark(strtoul(argv[1], NULL, 0));
	raise_flag(stop);
	reap(&busy, 1);
	printf("%d\n", pid);
	return 0;
}

/*
 * place-push BEGIN END: a SCHED_FIFO task spinning on CPU B, allowed on
 * I too, is preempted by a higher one woken on B: the RT class pushes it
 * to the idle CPU I (push_rt_task).  Prints its pid.
 */
static int cmd_place_push(int argc, char **argv)
{
	int *stop = shared_flags();
	int go[2], ready[2], rgo[2];
	char byte = 0;
	pid_t t, r;

	if (argc != 2)
		return 2;
	if (pipe(go) || pipe(ready) || pipe(rgo))
		die("pipe");
	pin(0, atoi(P_B));
	t = fork();
	if (t < 0)
		die("fork");
	if (t == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (read(go[0], &byte, 1) != 1)
			_exit(1);
		set_fifo(0, 10);
		pin_list(0, P_I "," P_B);
		if (write(ready[1], &byte, 1) != 1)
			_exit(1);
		while (!flag(stop))
			;
		_exit(0);
	}
	pin(0, atoi(P_W));
	wait_gone_to_sleep(t);
	if (write(go[1], &byte, 1) != 1 || read(ready[0], &byte, 1) != 1)
		die("fifo task");
	r = fork();
	if (r < 0)
		die("fork");
	if (r == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (read(rgo[0], &byte, 1) != 1)
			_exit(1);
		while (!flag(stop))
			;
		_exit(0);
	}
	wait_gone_to_sleep(r);
	set_fifo(r, 50);
	pin(r, atoi(P_B));
	mark(strtoul(argv[0], NULL, 0));
	if (write(rgo[1], &byte, 1) != 1)
		die("wake");
	wait_on_cpu(t, atoi(P_I), 1000);
	mark(strtoul(argv[1], NULL, 0));
	raise_flag(stop);
	reap(&r, 1);
	reap(&t, 1);
	printf("%d\n", t);
	return 0;
}

#define SCHED_DEBUGFS "/sys/kernel/debug/sched"

/* Set or clear (NO_NAME) a scheduler feature; 0 if it does not exist. */
static int sched_feature(const char *name)
{
	int fd = open(SCHED_DEBUGFS "/features", O_WRONLY);
	int ok;

	if (fd < 0)
		die(SCHED_DEBUGFS "/features");
	ok = write(fd, name, strlen(name)) == (ssize_t)strlen(name);
	close(fd);
	return ok;
}

/*
 * Newly idle balancing, made certain.  Where the NI_RANDOM feature runs it
 * only at the odds of its recent successes: clear it (returns 1 if it was
 * set, for the caller to set it again).
 */
static int newidle_not_random(void)
{
	char buf[4096];
	ssize_t n;
	int fd;

	fd = open(SCHED_DEBUGFS "/features", O_RDONLY);
	if (fd < 0)
		die(SCHED_DEBUGFS "/features");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	if (!strstr(buf, " NI_RANDOM") && strncmp(buf, "NI_RANDOM", 9))
		return 0;
	return sched_feature("NO_NI_RANDOM");
}

/*
 * And a CPU skips it while its average idle time is below the highest
 * cost seen, which decays by 1 % a second: under TCG one balance
 * stretched by the host can make that high enough to stop it for
 * minutes.  Forget CPU's costs.
 */
static void newidle_cost_reset(int cpu)
{
	char path[128];
	int d, fd;

	/* The domains' files are there once the scheduler is verbose. */
	fd = open(SCHED_DEBUGFS "/verbose", O_WRONLY);
	if (fd < 0 || write(fd, "Y", 1) != 1)
		die(SCHED_DEBUGFS "/verbose");
	close(fd);
	for (d = 0; d < 8; d++) {
		snprintf(path, sizeof(path),
			 SCHED_DEBUGFS "/domains/cpu%d/domain%d/max_newidle_lb_cost",
			 cpu, d);
		fd = open(path, O_WRONLY);
		if (fd < 0 && !d)
			die(path);
		if (fd < 0)
			break;
		if (write(fd, "0", 1) != 1)
			die(path);
		close(fd);
	}
}

/*
 * balance CASE BEGIN END: the load balancer moves one of a few spinners
 * of CPU 0 (of CPU 3 for "busy") to another CPU, in a balance whose kind
 * is known; the helper itself stays on CPU 3.  Prints the spinners' pids, at the end (as the
 * other workloads here: a reader woken meanwhile would run somewhere).
 *   newidle  CPU 1 runs a spinner that goes to sleep: its newly idle
 *            balance, made certain (newidle_not_random() and
 *            newidle_cost_reset()), pulls one of three (lb_newidle_task;
 *            of two queued ones, one is not cache hot).
 *   idle     CPU 2 is idle: its idle balance pulls the queued one of two,
 *            which nearly never runs (nice 19 beside nice -20)
 *            (lb_idle_task).
 *   active   CPU 1 is idle, and the one of two it may take is nearly
 *            always running (nice -20 beside a pinned nice 19): active
 *            balancing pushes it (detach_one_task, active_balance).
 *   busy     every CPU runs a pinned spinner but CPU 3, which runs three
 *            (and this helper), one of them allowed on CPU 0 too: the busy
 *            balance of CPU 0 pulls it by load (lb_busy_load).  Only one
 *            may move: a balance by load can take two at once.
 * A spinner may use the destination from BEGIN on; the first there keeps
 * the others where they are (spin_task()), and END is written once one
 * is there, or after 3 s.
 */
static int cmd_balance(int argc, char **argv)
{
	int *stop = shared_flags();
	pid_t pids[8], side[8], y = 0;
	int i, n = 0, ns = 0, dst, random_newidle = 0;
	const char *widen;

	if (argc != 3)
		return 2;
	pin(0, 3);
	if (!strcmp(argv[0], "newidle")) {
		dst = 1;
		widen = "0,1";
		y = fork();
		if (y < 0)
			die("fork");
		if (y == 0) {
			char byte = 0;
			int zp[2];

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			pin(0, 1);
			if (pipe(zp))
				die("pipe");
			if (fork() == 0) {
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				while (read(zp[0], &byte, 1) == 1)
					;
				_exit(0);
			}
			while (!flag(&stop[1]))
				;
			/*
			 * Newly idle balancing only runs while the root domain
			 * is marked overloaded, and a balance by CPU 2 or 3,
			 * all of whose candidates are pinned away from them,
			 * clears that mark: a second task queued on CPU 1 sets
			 * it again, just before CPU 1 goes idle.
			 */
			if (write(zp[1], &byte, 1) != 1)
				_exit(1);
			usleep(500000);
			_exit(0);
		}
		wait_on_cpu(y, 1, 1000);
		/*
		 * And CPUs 2 and 3 kept busy, at nice 19: an idle CPU
		 * balances for the idle ones at every tick of a busy one,
		 * and each such balance clears the mark again.
		 */
		side[ns++] = spinner("2", 19, stop);
		side[ns++] = spinner("3", 19, stop);
		for (i = 0; i < 3; i++)
			pids[n++] = spin_task("0", 0, stop, dst);
		random_newidle = newidle_not_random();
	} else if (!strcmp(argv[0], "idle")) {
		dst = 2;
		widen = "0,2";
		pids[n++] = spin_task("0", 19, stop, dst);
		side[ns++] = spinner("0", -20, stop);
	} else if (!strcmp(argv[0], "active")) {
		dst = 1;
		widen = "0,1";
		side[ns++] = spinner("0", 19, stop);
		pids[n++] = spin_task("0", -20, stop, dst);
	} else if (!strcmp(argv[0], "busy")) {
		dst = 0;
		widen = "0,3";
		side[ns++] = spinner("0", 0, stop);
		side[ns++] = spinner("1", 0, stop);
		side[ns++] = spinner("2", 0, stop);
		side[ns++] = spinner("3", 0, stop);
		side[ns++] = spinner("3", 0, stop);
		pids[n++] = spin_task("3", 0, stop, dst);
	} else {
		return 2;
	}
	/* Their load and utilization settle. */
	usleep(300000);
	mark(strtoul(argv[1], NULL, 0));
	for (i = 0; i < n; i++)
		pin_list(pids[i], widen);
	if (y) {
		newidle_cost_reset(1);
		usleep(20000);
		raise_flag(&stop[1]);
	}
	for (i = 0; i < 600 && !flag(&stop[2]); i++)
		usleep(5000);
	mark(strtoul(argv[2], NULL, 0));
	if (random_newidle)
		sched_feature("NI_RANDOM");
	raise_flag(stop);
	reap(pids, n);
	reap(side, ns);
	if (y)
		reap(&y, 1);
	for (i = 0; i < n; i++)
		printf("%d%c", pids[i], i + 1 < n ? ' ' : '\n');
	return 0;
}

/*
 * balance-util FROM DST N BEGIN END: N spinners on the CPUs of FROM (a
 * NUMA node, N more than its CPUs) may use the idle CPU DST of another
 * node from BEGIN on: the balance across the nodes moves one there by
 * utilization (lb_idle_util).  END once one is there, or after 3 s.
 * Prints the spinners' pids.
 */
static int cmd_balance_util(int argc, char **argv)
{
	int *stop = shared_flags();
	char widen[256];
	int i, n, dst;
	pid_t pids[64];

	if (argc != 5)
		return 2;
	dst = atoi(argv[1]);
	n = atoi(argv[2]);
	if (n > 64)
		return 2;
	snprintf(widen, sizeof(widen), "%s,%d", argv[0], dst);
	pin_list(0, argv[0]);
	for (i = 0; i < n; i++)
		pids[i] = spinner(argv[0], 0, stop);
	usleep(500000);
	mark(strtoul(argv[3], NULL, 0));
	for (i = 0; i < n; i++)
		pin_list(pids[i], widen);
	wait_any_on_cpu(pids, n, dst, 3000);
	mark(strtoul(argv[4], NULL, 0));
	raise_flag(stop);
	reap(pids, n);
	for (i = 0; i < n; i++)
		printf("%d%c", pids[i], i + 1 < n ? ' ' : '\n');
	return 0;
}

static const struct mt_cmd cmds[] = {
	{ "wakeup", "FORK PREV MASK WAKER SPINNERS KICK ROUNDS MARK", cmd_wakeup },
	{ "place-wake", "affine|rt|dl BEGIN END", cmd_place_wake },
	{ "place-fork", "BEGIN END", cmd_place_fork },
	{ "place-exec", "BEGIN END", cmd_place_exec },
	{ "place-push", "BEGIN END", cmd_place_push },
	{ "balance", "newidle|idle|active|busy BEGIN END", cmd_balance },
	{ "balance-util", "FROM DST N BEGIN END", cmd_balance_util },
};

int main(int argc, char **argv)
{
	return mt_main(cmds, ARRAY_SIZE(cmds), argc, argv);
}
