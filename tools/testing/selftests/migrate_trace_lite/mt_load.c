// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads of mt_helper: tasks that move between CPUs in ways whose
 * migrations, causes and reasons are known (affinity changes, wakeups,
 * forks and execs, RT and deadline tasks, NUMA balancing, core
 * scheduling), for the selftests, the demo and the benchmark.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/mempolicy.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mt_helper.h"
#include "mt_load.h"

/*
 * A spinning child is moved between CPUs A and B by its parent, which
 * runs on CPU C: each sched_setaffinity() returns once the move is done,
 * so N round trips are exactly 2N migrations, each by migration_cpu_stop.
 * Marks BEGIN and END bracket them.
 */
int cmd_affinity(int argc, char **argv)
{
	int n, a, b, c, i, status;
	unsigned long begin, end;
	int ready[2];
	pid_t child;
	char byte;

	if (argc != 6)
		return 2;
	n = atoi(argv[0]);
	a = atoi(argv[1]);
	b = atoi(argv[2]);
	c = atoi(argv[3]);
	begin = strtoul(argv[4], NULL, 0);
	end = strtoul(argv[5], NULL, 0);
	pin(0, c);
	if (pipe(ready))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		pin(0, a);
		if (write(ready[1], "r", 1) != 1)
			die("write");
		for (;;)
			;
	}
	if (read(ready[0], &byte, 1) != 1)
		die("read");
	printf("%d\n", child);
	fflush(stdout);
	mark(begin);
	for (i = 0; i < n; i++) {
		pin(child, b);
		pin(child, a);
	}
	mark(end);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	return 0;
}

/* Two pipes, one each way, and a child: its pid, 0 in the child. */
static pid_t fork_with_pipes(int there[2], int back[2])
{
	pid_t child;

	if (pipe(there) || pipe(back))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	return child;
}

/* Two unpinned processes bouncing a byte N times: wakeup-heavy. */
static void pingpong(int n)
{
	int i, ab[2], ba[2];
	pid_t child;
	char byte = 0;

	child = fork_with_pipes(ab, ba);
	if (child == 0) {
		for (i = 0; i < n; i++)
			if (read(ab[0], &byte, 1) != 1 ||
			    write(ba[1], &byte, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (write(ab[1], &byte, 1) != 1 || read(ba[0], &byte, 1) != 1)
			die("pingpong");
	waitpid(child, NULL, 0);
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
}

int cmd_pingpong(int argc, char **argv)
{
	if (argc != 1)
		return 2;
	pingpong(atoi(argv[0]));
	return 0;
}

/* N children that each exec PROGRAM (fork balancing, exec balancing). */
static void forkexec(int n, const char *program)
{
	int i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			execl(program, program, (char *)NULL);
			_exit(127);
		}
		waitpid(pid, NULL, 0);
	}
}

int cmd_forkexec(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	forkexec(atoi(argv[0]), argv[1]);
	return 0;
}

static void spin_us(long us)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000L +
		 (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

/*
 * N children that each take a scheduling class (@take_class(i)), then
 * alternate bursts of BURST_US + i * STEP_US microseconds with sleeps of
 * SLEEP_US for MS milliseconds.  Return: how many did not run.
 */
static int bursts(int n, int ms, void (*take_class)(int i), long burst_us,
		  long step_us, long sleep_us)
{
	int i, status, failed = 0;
	pid_t *kids;

	kids = calloc(n, sizeof(*kids));
	if (!kids)
		die("calloc");
	for (i = 0; i < n; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (kids[i] == 0) {
			struct timespec t0, t;

			take_class(i);
			clock_gettime(CLOCK_MONOTONIC, &t0);
			do {
				spin_us(burst_us + i * step_us);
				usleep(sleep_us);
				clock_gettime(CLOCK_MONOTONIC, &t);
			} while ((t.tv_sec - t0.tv_sec) * 1000L +
				 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
			_exit(0);
		}
	}
	for (i = 0; i < n; i++)
		if (waitpid(kids[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed++;
	free(kids);
	return failed;
}

static void take_fifo(int i)
{
	struct sched_param sp = { .sched_priority = 10 + i };

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		die("sched_setscheduler");
}

/*
 * N SCHED_FIFO processes of distinct priorities, more than there are
 * CPUs, alternating short bursts and sleeps for MS milliseconds: the RT
 * class pushes and pulls them between CPUs.
 */
int cmd_fifo(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	bursts(atoi(argv[0]), atoi(argv[1]), take_fifo, 300, 100, 200);
	return 0;
}

/* 2 ms every 10 ms.  A deadline task cannot fork: each child takes it. */
static void take_deadline(int i)
{
	struct dl_attr a = {
		.size = sizeof(a),
		.sched_policy = SCHED_DEADLINE,
		.sched_runtime = 2000000,
		.sched_deadline = 10000000,
		.sched_period = 10000000,
	};

	if (syscall(SYS_sched_setattr, 0, &a, 0))
		die("sched_setattr");
}

/*
 * N SCHED_DEADLINE processes, more than there are CPUs, alternating 1 ms
 * bursts and 2 ms sleeps for MS milliseconds: a wakeup on a CPU that runs
 * an earlier deadline goes to a later runqueue, and the deadline class
 * pushes and pulls.  Prints "ok", or how many of them could not run.
 */
int cmd_deadline(int argc, char **argv)
{
	int failed;

	if (argc != 2)
		return 2;
	failed = bursts(atoi(argv[0]), atoi(argv[1]), take_deadline, 1000, 0,
			2000);
	if (failed)
		printf("%d of %s failed\n", failed, argv[0]);
	else
		printf("ok\n");
	return 0;
}

/* A child that renames itself to NAME; prints the child's pid. */
int cmd_comm(int argc, char **argv)
{
	pid_t pid;

	if (argc != 1)
		return 2;
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (prctl(PR_SET_NAME, argv[0], 0, 0, 0))
			die("prctl");
		_exit(0);
	}
	printf("%d\n", pid);
	waitpid(pid, NULL, 0);
	return 0;
}

/*
 * For the benchmark: P processes each move themselves between CPUs 0
 * and 1, K round trips (2K migrations) each; prints the elapsed ns and
 * the number of migrations asked for.  With NCPU, process i moves
 * between CPUs 2i and 2i + 1 modulo NCPU (mt_pipe on a large guest).
 */
int cmd_bench_affinity(int argc, char **argv)
{
	int k, procs, ncpu, i, j;
	unsigned long long t0;
	pid_t *kids;

	if (argc != 2 && argc != 3)
		return 2;
	k = atoi(argv[0]);
	procs = atoi(argv[1]);
	ncpu = argc == 3 ? atoi(argv[2]) : 2;
	if (ncpu < 2)
		return 2;
	kids = calloc(procs, sizeof(*kids));
	if (!kids)
		die("calloc");
	t0 = now_ns();
	for (i = 0; i < procs; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (kids[i] == 0) {
			int a = 2 * i % ncpu, b = (2 * i + 1) % ncpu;

			for (j = 0; j < k; j++) {
				pin(0, b);
				pin(0, a);
			}
			_exit(0);
		}
	}
	for (i = 0; i < procs; i++)
		waitpid(kids[i], NULL, 0);
	printf("%llu %d\n", now_ns() - t0, 2 * k * procs);
	return 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * For the benchmark: PROCS processes move themselves between CPUs 0 and 1
 * for SECONDS; prints the number of moves asked for.  With NCPU, process
 * i moves between CPUs 2i and 2i + 1 modulo NCPU: a storm on every CPU.
 */
int cmd_storm(int argc, char **argv)
{
	int procs, ncpu, i, status;
	unsigned long long total = 0;
	int fd[2];

	if (argc != 2 && argc != 3)
		return 2;
	procs = atoi(argv[1]);
	ncpu = argc == 3 ? atoi(argv[2]) : 2;
	if (ncpu < 2)
		return 2;
	if (pipe(fd))
		die("pipe");
	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			double end = now_s() + atoi(argv[0]);
			unsigned long long n = 0;
			int a = 2 * i % ncpu, b = (2 * i + 1) % ncpu;

			while (now_s() < end) {
				pin(0, b);
				pin(0, a);
				n += 2;
			}
			if (write(fd[1], &n, sizeof(n)) != sizeof(n))
				_exit(1);
			_exit(0);
		}
	}
	for (i = 0; i < procs; i++) {
		unsigned long long n;

		wait(&status);
		if (read(fd[0], &n, sizeof(n)) == sizeof(n))
			total += n;
	}
	printf("%llu\n", total);
	return 0;
}

/* For the benchmark: the pipe ping-pong, timed; prints the elapsed ns. */
int cmd_bench_pingpong(int argc, char **argv)
{
	unsigned long long t0 = now_ns();

	if (argc != 1)
		return 2;
	pingpong(atoi(argv[0]));
	printf("%llu %s\n", now_ns() - t0, argv[0]);
	return 0;
}

/*
 * A child sleeps in read(); its parent changes the child's affinity while
 * it sleeps, between CPUs A and B, then wakes it: each of the 2N moves
 * happens at the wakeup, forced by the affinity change.  Returns the
 * child's pid, already reaped; BEGIN and END marks (if nonzero) bracket
 * the moves.
 */
static pid_t affinity_sleep_marked(int n, int a, int b, unsigned long begin,
				   unsigned long end, int announce)
{
	int i, status, go[2], back[2];
	pid_t child;
	char byte = 0;

	child = fork_with_pipes(go, back);
	if (child == 0) {
		pin(0, a);
		for (;;) {
			if (write(back[1], &byte, 1) != 1 || read(go[0], &byte, 1) != 1)
				_exit(0);
		}
	}
	if (read(back[0], &byte, 1) != 1)
		die("read");
	if (announce) {
		printf("%d\n", child);
		fflush(stdout);
	}
	if (begin)
		mark(begin);
	for (i = 0; i < 2 * n; i++) {
		wait_asleep(child);
		pin(child, i % 2 ? a : b);
		if (write(go[1], &byte, 1) != 1 || read(back[0], &byte, 1) != 1)
			die("wake");
	}
	if (end)
		mark(end);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	close(go[0]);
	close(go[1]);
	close(back[0]);
	close(back[1]);
	return child;
}

static void affinity_sleep(int n, int a, int b)
{
	affinity_sleep_marked(n, a, b, 0, 0, 0);
}

int cmd_affinity_sleep(int argc, char **argv)
{
	if (argc != 5)
		return 2;
	affinity_sleep_marked(atoi(argv[0]), atoi(argv[1]), atoi(argv[2]),
			      strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0), 1);
	return 0;
}

/*
 * sleepers N SECONDS: N processes that sleep SECONDS; prints "ready" once
 * all exist, and returns when they are gone.  Killing it kills them.
 */
int cmd_sleepers(int argc, char **argv)
{
	int n, secs, i;

	if (argc != 2)
		return 2;
	n = atoi(argv[0]);
	secs = atoi(argv[1]);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			/* They go with their parent. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			sleep(secs);
			_exit(0);
		}
	}
	printf("ready\n");
	fflush(stdout);
	while (wait(NULL) > 0)
		;
	return 0;
}

/* Keep LEN bytes at BUF on NODE, still scanned by NUMA balancing. */
static void bind_to_node(void *buf, size_t len, int node)
{
	unsigned long mask = 1UL << node;

	if (syscall(SYS_mbind, buf, len, MPOL_BIND | MPOL_F_NUMA_BALANCING,
		    &mask, 8 * sizeof(mask), 0))
		die("mbind");
}

/*
 * NUMA balancing at work: on each of two nodes (their CPU lists), PROCS
 * processes first touch MIB of memory there, move to the other node, and
 * then, free to run on the CPUs of FREE (all if not given), keep touching
 * it for SECONDS.  NUMA balancing moves them back to their memory
 * (migrate_task_to) or, where FREE leaves no idle CPU on their node,
 * swaps them with a twin from the other node (__migrate_swap_task).
 * With FREE the memory is bound to its node: NUMA balancing could
 * otherwise move the pages to the task instead of the task to them.
 */
int cmd_numa(int argc, char **argv)
{
	int secs, mib, procs, i, node;
	pid_t *kids;

	if (argc != 5 && argc != 6)
		return 2;
	secs = atoi(argv[0]);
	mib = atoi(argv[1]);
	procs = atoi(argv[2]);
	kids = calloc(2 * procs, sizeof(*kids));
	if (!kids)
		die("calloc");
	for (i = 0; i < 2 * procs; i++) {
		node = i % 2;
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (kids[i] == 0) {
			size_t len = (size_t)mib << 20, off;
			char *buf;
			double end;

			pin_list(0, argv[3 + node]);
			buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (buf == MAP_FAILED)
				die("mmap");
			if (argc == 6)
				bind_to_node(buf, len, node);
			memset(buf, 1, len);
			pin_list(0, argv[4 - node]);
			usleep(10000);
			pin_list(0, argc == 6 ? argv[5] : NULL);
			end = now_s() + secs;
			while (now_s() < end)
				for (off = 0; off < len; off += 4096)
					__atomic_fetch_add(&buf[off], 1, __ATOMIC_RELAXED);
			_exit(0);
		}
	}
	for (i = 0; i < 2 * procs; i++)
		waitpid(kids[i], NULL, 0);
	free(kids);
	return 0;
}

#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE		62
#define PR_SCHED_CORE_CREATE	1
#endif

/*
 * Core scheduling at work: GROUPS groups of PROCS processes, each group
 * with its own core-scheduling cookie, all confined to the SMT threads of
 * CPUS, alternate bursts and sleeps for SECONDS: tasks of different
 * cookies may not share a core, and an idle sibling steals a task of its
 * cookie from another core (try_steal_cookie).
 */
int cmd_cookies(int argc, char **argv)
{
	int secs, groups, procs, g, i;

	if (argc != 4)
		return 2;
	secs = atoi(argv[0]);
	groups = atoi(argv[1]);
	procs = atoi(argv[2]);
	for (g = 0; g < groups; g++) {
		pid_t leader = fork();

		if (leader < 0)
			die("fork");
		if (leader)
			continue;
		if (prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, 0, 1, 0))
			die("prctl(PR_SCHED_CORE)");
		pin_list(0, argv[3]);
		for (i = 0; i < procs; i++) {
			if (fork() == 0) {
				double end = now_s() + secs;

				while (now_s() < end) {
					spin_us(2000 + 500 * i);
					usleep(500);
				}
				_exit(0);
			}
		}
		while (wait(NULL) > 0)
			;
		_exit(0);
	}
	while (wait(NULL) > 0)
		;
	return 0;
}

/*
 * SPINNERS CPU-bound processes start together on CPU 0, then may run
 * anywhere: the load balancer spreads them.
 */
static void spread(int spinners, int ms)
{
	pid_t kids[8];
	int i;

	for (i = 0; i < spinners && i < 8; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (kids[i] == 0) {
			pin(0, 0);
			spin_us(20000);
			pin_list(0, NULL);
			spin_us(ms * 1000L);
			_exit(0);
		}
	}
	for (i = 0; i < spinners && i < 8; i++)
		waitpid(kids[i], NULL, 0);
}

/* The demo/test mix, all at once, for SECONDS seconds. */
int cmd_mixed(int argc, char **argv)
{
	int secs, ncpu, i;
	pid_t kids[6];
	time_t stop;

	if (argc != 2)
		return 2;
	secs = atoi(argv[0]);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	stop = time(NULL) + secs;
	for (i = 0; i < 6; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (kids[i])
			continue;
		while (time(NULL) < stop) {
			switch (i) {
			case 0:
				forkexec(20, argv[1]);
				break;
			case 1:
				pingpong(100);
				break;
			case 2:
				pin(0, rand() % ncpu);
				usleep(1000);
				break;
			case 3:
				if (ncpu > 1)
					bursts(4, 200, take_fifo, 300, 100, 200);
				sleep(1);
				break;
			case 4:
				if (ncpu > 1)
					affinity_sleep(20, 0, ncpu - 1);
				usleep(100000);
				break;
			case 5:
				spread(3, 200);
				usleep(300000);
				break;
			}
		}
		_exit(0);
	}
	for (i = 0; i < 6; i++)
		waitpid(kids[i], NULL, 0);
	return 0;
}
