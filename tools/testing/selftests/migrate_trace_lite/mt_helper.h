/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mt_helper and mt_place share: dying with the errno, pinning to CPUs,
 * writing a mark, waiting for a task to sleep or to be on a CPU, giving a
 * task SCHED_FIFO or SCHED_DEADLINE, the clock, and main()'s dispatch.
 */
#ifndef MT_HELPER_H
#define MT_HELPER_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MARK_FILE "/sys/kernel/debug/migration_trace/mark"

static inline void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
		strerror(errno));
	exit(1);
}

static inline void pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(pid, sizeof(set), &set))
		die("sched_setaffinity");
}

/* Pin task PID to the CPUs of LIST ("a-b" or "a,b,c"), or all if NULL. */
static inline void pin_list(pid_t pid, const char *list)
{
	cpu_set_t set;
	int a, b, n = 0;
	const char *p = list;

	CPU_ZERO(&set);
	if (!list) {
		for (a = 0; a < CPU_SETSIZE; a++)
			CPU_SET(a, &set);
	}
	while (p && *p) {
		if (sscanf(p, "%d-%d%n", &a, &b, &n) != 2) {
			if (sscanf(p, "%d%n", &a, &n) != 1)
				die("cpu list");
			b = a;
		}
		for (; a <= b; a++)
			CPU_SET(a, &set);
		p += n;
		if (*p == ',')
			p++;
	}
	if (sched_setaffinity(pid, sizeof(set), &set))
		die("sched_setaffinity");
}

static inline void mark(unsigned long value)
{
	char buf[32];
	int fd = open(MARK_FILE, O_WRONLY);

	if (fd < 0)
		die(MARK_FILE);
	snprintf(buf, sizeof(buf), "%lu", value);
	if (write(fd, buf, strlen(buf)) < 0)
		die("mark");
	close(fd);
}

/* State letter of task PID from /proc (R, S, D, ...), or '?'. */
static inline char task_state(pid_t pid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static inline void wait_asleep(pid_t pid)
{
	while (task_state(pid) != 'S')
		usleep(100);
}

/* struct sched_attr of <linux/sched/types.h>, its first version. */
struct dl_attr {
	unsigned int size;
	unsigned int sched_policy;
	unsigned long long sched_flags;
	int sched_nice;
	unsigned int sched_priority;
	unsigned long long sched_runtime;
	unsigned long long sched_deadline;
	unsigned long long sched_period;
};

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

/* The CPU task PID last ran on (/proc/PID/stat field 39), or -1. */
static inline int task_cpu_of(pid_t pid)
{
	char path[64], buf[1024], *p;
	int fd, i;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* Field 3 follows ") "; field 39 is 36 spaces further. */
	for (i = 0; p && i < 37; i++)
		p = strchr(p + 1, ' ');
	return p ? atoi(p + 1) : -1;
}

/* Wait up to MS milliseconds for one of N tasks PIDS to be on CPU. */
static inline int wait_any_on_cpu(const pid_t *pids, int n, int cpu, int ms)
{
	int i, j;

	for (i = 0; i < ms; i += 5) {
		for (j = 0; j < n; j++)
			if (task_cpu_of(pids[j]) == cpu)
				return 1;
		usleep(5000);
	}
	return 0;
}

static inline int wait_on_cpu(pid_t pid, int cpu, int ms)
{
	return wait_any_on_cpu(&pid, 1, cpu, ms);
}

/*
 * Wait until task PID sleeps, then 50 ms more: it has left its runqueue,
 * also where it was kept there as a delayed dequeue (a CFS task that
 * slept ahead of its share stays queued until it is picked).
 */
static inline void wait_gone_to_sleep(pid_t pid)
{
	wait_asleep(pid);
	usleep(50000);
}

static inline void set_fifo(pid_t pid, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	if (sched_setscheduler(pid, SCHED_FIFO, &sp))
		die("sched_setscheduler");
}

/* SCHED_DEADLINE with the given microseconds. */
static inline void set_dl(pid_t pid, long runtime_us, long deadline_us, long period_us)
{
	struct dl_attr a = {
		.size = sizeof(a),
		.sched_policy = SCHED_DEADLINE,
		.sched_runtime = runtime_us * 1000ULL,
		.sched_deadline = deadline_us * 1000ULL,
		.sched_period = period_us * 1000ULL,
	};

	if (syscall(SYS_sched_setattr, pid, &a, 0))
		die("sched_setattr (deadline)");
}

static inline unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/* A command of a helper program: its name, its arguments, what runs it. */
struct mt_cmd {
	const char *name, *args;
	int (*fn)(int argc, char **argv);
};

/*
 * A helper's main(): run the command argv[1] names with the arguments
 * after it; a command that returns 2 was misused, and the usage follows.
 */
static inline int mt_main(const struct mt_cmd *cmds, size_t n, int argc,
			  char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < n; i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		if (cmds[i].fn(argc - 2, argv + 2) != 2)
			return 0;
		break;
	}
	fprintf(stderr, "usage: %s COMMAND ARGS...\n",
		program_invocation_short_name);
	for (i = 0; i < n; i++)
		fprintf(stderr, "  %s %s\n", cmds[i].name, cmds[i].args);
	return 2;
}

#endif /* MT_HELPER_H */
