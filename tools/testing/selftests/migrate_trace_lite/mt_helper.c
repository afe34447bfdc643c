// SPDX-License-Identifier: GPL-2.0
/*
 * Helper for the migrate_trace_lite selftests and demo: exact writes to
 * control files (reporting the errno by name) and workloads whose
 * migrations are known.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <poll.h>
#include <linux/mempolicy.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"

#define MARK_FILE "/sys/kernel/debug/migration_trace/mark"

static void die(const char *what)
{
	fprintf(stderr, "mt_helper: %s: %s\n", what, strerror(errno));
	exit(1);
}

static const char *errname(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : "E?";
}

/* Print "ok" or the errno name of one write(2) of @len bytes. */
static int write_once(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	if (write(fd, buf, len) < 0)
		printf("%s\n", errname(errno));
	else
		printf("ok\n");
	close(fd);
	return 0;
}

static int cmd_write(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	return write_once(argv[0], argv[1], strlen(argv[1]));
}

/* N bytes that are no number: letters and punctuation. */
static int cmd_write_garbage(int argc, char **argv)
{
	size_t i, n;
	char *buf;

	if (argc != 2)
		return 2;
	n = strtoul(argv[1], NULL, 0);
	buf = malloc(n);
	if (!buf)
		die("malloc");
	for (i = 0; i < n; i++)
		buf[i] = "x!@#%^&*()qwerty"[i % 16];
	return write_once(argv[0], buf, n);
}

/* DATA followed by a NUL and more DATA. */
static int cmd_write_nul(int argc, char **argv)
{
	char buf[64];
	size_t len;

	if (argc != 2 || strlen(argv[1]) > 30)
		return 2;
	len = strlen(argv[1]);
	memcpy(buf, argv[1], len);
	buf[len] = '\0';
	memcpy(buf + len + 1, argv[1], len);
	return write_once(argv[0], buf, 2 * len + 1);
}

/*
 * As user UID, try to open each FILE for reading and for writing; prints
 * "FILE READ-RESULT WRITE-RESULT" ("ok" or the errno name).
 */
static int cmd_as_user(int argc, char **argv)
{
	uid_t uid;
	int i;

	if (argc < 2)
		return 2;
	uid = strtoul(argv[0], NULL, 0);
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		die("setuid");
	for (i = 1; i < argc; i++) {
		int r = open(argv[i], O_RDONLY), er = errno;
		int w = open(argv[i], O_WRONLY), ew = errno;

		printf("%s %s %s\n", argv[i], r < 0 ? errname(er) : "ok",
		       w < 0 ? errname(ew) : "ok");
		if (r >= 0)
			close(r);
		if (w >= 0)
			close(w);
	}
	return 0;
}

/* One read(2) of FILE opened read-write; prints "ok" or the errno name. */
static int cmd_read_rw(int argc, char **argv)
{
	char buf[64];
	int fd;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_RDWR);
	if (fd < 0 && errno == EACCES)
		fd = open(argv[0], O_RDONLY);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	printf("%s\n", read(fd, buf, sizeof(buf)) < 0 ? errname(errno) : "ok");
	close(fd);
	return 0;
}

/* One write(2) of DATA to FILE opened read-write (to reach read-only files). */
static int cmd_write_rw(int argc, char **argv)
{
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[0], O_RDWR);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	if (write(fd, argv[1], strlen(argv[1])) < 0)
		printf("%s\n", errname(errno));
	else
		printf("ok\n");
	close(fd);
	return 0;
}

/*
 * Seek to OFFSET, then write DATA; or, with OFFSET "split", write DATA
 * in two write(2) calls on one open file.  Prints the result of each.
 */
static int cmd_write_at(int argc, char **argv)
{
	size_t half;
	int fd;

	if (argc != 3)
		return 2;
	fd = open(argv[0], O_WRONLY);
	if (fd < 0)
		die(argv[0]);
	if (strcmp(argv[1], "split")) {
		if (lseek(fd, strtol(argv[1], NULL, 0), SEEK_SET) < 0)
			printf("seek:%s ", errname(errno));
		printf("%s\n", write(fd, argv[2], strlen(argv[2])) < 0 ? errname(errno) : "ok");
	} else {
		half = strlen(argv[2]) / 2;
		printf("%s ", write(fd, argv[2], half) < 0 ? errname(errno) : "ok");
		printf("%s\n", write(fd, argv[2] + half, strlen(argv[2]) - half) < 0 ?
		       errname(errno) : "ok");
	}
	close(fd);
	return 0;
}

static int cmd_read(int argc, char **argv)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_RDONLY);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	printf("%s\n", n < 0 ? errname(errno) : "ok");
	close(fd);
	return 0;
}

static void pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(pid, sizeof(set), &set))
		die("sched_setaffinity");
}

static void mark(unsigned long value)
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

/*
 * A spinning child is moved between CPUs A and B by its parent, which
 * runs on CPU C: each sched_setaffinity() returns once the move is done,
 * so N round trips are exactly 2N migrations, each by migration_cpu_stop.
 * Marks BEGIN and END bracket them.
 */
static int cmd_affinity(int argc, char **argv)
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

/* Two unpinned processes bouncing a byte N times: wakeup-heavy. */
static void pingpong(int n)
{
	int i, ab[2], ba[2];
	pid_t child;
	char byte = 0;

	if (pipe(ab) || pipe(ba))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
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

static int cmd_pingpong(int argc, char **argv)
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

static int cmd_forkexec(int argc, char **argv)
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
static int cmd_fifo(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	bursts(atoi(argv[0]), atoi(argv[1]), take_fifo, 300, 100, 200);
	return 0;
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
static int cmd_deadline(int argc, char **argv)
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
static int cmd_comm(int argc, char **argv)
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
 * Write marks 1, 2, ... up to N on CPU CPU until a write fails; print how
 * many were written and the errno name of the failure ("ok" if none).
 */
static int cmd_marks(int argc, char **argv)
{
	unsigned long i, n;
	const char *err = "ok";
	char buf[32];
	int fd;

	if (argc != 2)
		return 2;
	n = strtoul(argv[0], NULL, 0);
	pin(0, atoi(argv[1]));
	fd = open(MARK_FILE, O_WRONLY);
	if (fd < 0)
		die(MARK_FILE);
	for (i = 1; i <= n; i++) {
		snprintf(buf, sizeof(buf), "%lu", i);
		if (write(fd, buf, strlen(buf)) < 0) {
			err = errname(errno);
			break;
		}
	}
	printf("%lu %s\n", i - 1, err);
	close(fd);
	return 0;
}

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/*
 * One write(2) of DATA to FILE every MS milliseconds, N times, on an
 * absolute schedule; prints how many writes failed.
 */
static int cmd_every(int argc, char **argv)
{
	struct timespec next;
	int ms, n, i, fd, failed = 0;

	if (argc != 4)
		return 2;
	ms = atoi(argv[0]);
	n = atoi(argv[1]);
	fd = open(argv[2], O_WRONLY);
	if (fd < 0)
		die(argv[2]);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < n; i++) {
		if (write(fd, argv[3], strlen(argv[3])) < 0)
			failed++;
		next.tv_nsec += ms * 1000000L;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	printf("%d\n", failed);
	close(fd);
	return 0;
}

/*
 * For the benchmark: P processes each move themselves between CPUs 0
 * and 1, K round trips (2K migrations) each; prints the elapsed ns and
 * the number of migrations asked for.
 */
static int cmd_bench_affinity(int argc, char **argv)
{
	int k, procs, i, j;
	unsigned long long t0;
	pid_t *kids;

	if (argc != 2)
		return 2;
	k = atoi(argv[0]);
	procs = atoi(argv[1]);
	kids = calloc(procs, sizeof(*kids));
	if (!kids)
		die("calloc");
	t0 = now_ns();
	for (i = 0; i < procs; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (kids[i] == 0) {
			for (j = 0; j < k; j++) {
				pin(0, 1);
				pin(0, 0);
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
 * for SECONDS; prints the number of moves asked for.
 */
static int cmd_storm(int argc, char **argv)
{
	int procs, i, status;
	unsigned long long total = 0;
	int fd[2];

	if (argc != 2)
		return 2;
	procs = atoi(argv[1]);
	if (pipe(fd))
		die("pipe");
	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			double end = now_s() + atoi(argv[0]);
			unsigned long long n = 0;

			while (now_s() < end) {
				pin(0, 1);
				pin(0, 0);
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
static int cmd_bench_pingpong(int argc, char **argv)
{
	unsigned long long t0 = now_ns();

	if (argc != 1)
		return 2;
	pingpong(atoi(argv[0]));
	printf("%llu %s\n", now_ns() - t0, argv[0]);
	return 0;
}

/* Read FILE to the end; prints the elapsed ns, bytes and lines. */
static int cmd_read_time(int argc, char **argv)
{
	unsigned long long t0, bytes = 0, lines = 0;
	char buf[65536];
	ssize_t n, i;
	int fd;

	if (argc != 1)
		return 2;
	t0 = now_ns();
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		die(argv[0]);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		bytes += n;
		for (i = 0; i < n; i++)
			lines += buf[i] == '\n';
	}
	if (n < 0)
		die("read");
	close(fd);
	printf("%llu %llu %llu\n", now_ns() - t0, bytes, lines);
	return 0;
}

/* State letter of task PID from /proc (R, S, D, ...), or '?'. */
static char task_state(pid_t pid)
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

static void wait_asleep(pid_t pid)
{
	while (task_state(pid) != 'S')
		usleep(100);
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

	if (pipe(go) || pipe(back))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
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

static int cmd_affinity_sleep(int argc, char **argv)
{
	if (argc != 5)
		return 2;
	affinity_sleep_marked(atoi(argv[0]), atoi(argv[1]), atoi(argv[2]),
			      strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0), 1);
	return 0;
}

/*
 * Open FILE (trace_pipe) without blocking and read until it has nothing:
 * prints "EAGAIN BYTES", "EOF BYTES" or the errno name of the failure.
 */
static int cmd_pipe_nonblock(int argc, char **argv)
{
	unsigned long long bytes = 0;
	char buf[65536];
	ssize_t n;
	int fd;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		bytes += n;
	printf("%s %llu\n", n == 0 ? "EOF" : errname(errno), bytes);
	close(fd);
	return 0;
}

/*
 * Drain FILE (trace_pipe), write mark VALUE, and see poll() report it and
 * read() return it within 2 s: prints "drained=EAGAIN poll=POLLIN
 * mark=found MS", MS the milliseconds from the mark to its line.
 */
static int cmd_pipe_mark(int argc, char **argv)
{
	struct pollfd pfd;
	static char buf[1 << 16];
	char want[32], *seen = NULL;
	const char *drained, *polled;
	struct timespec t0, t1;
	size_t len = 0;
	ssize_t n;
	int i;

	if (argc != 2)
		return 2;
	pfd.fd = open(argv[0], O_RDONLY | O_NONBLOCK);
	if (pfd.fd < 0)
		die(argv[0]);
	while ((n = read(pfd.fd, buf, sizeof(buf))) > 0)
		;
	drained = n < 0 ? errname(errno) : "EOF";
	clock_gettime(CLOCK_MONOTONIC, &t0);
	mark(strtoul(argv[1], NULL, 0));
	pfd.events = POLLIN;
	n = poll(&pfd, 1, 2000);
	polled = n > 0 && (pfd.revents & POLLIN) ? "POLLIN" : "timeout";
	snprintf(want, sizeof(want), " 0x%08lx", strtoul(argv[1], NULL, 0));
	for (i = 0; i < 2000 && !seen; i++) {
		n = read(pfd.fd, buf + len, sizeof(buf) - 1 - len);
		if (n > 0) {
			len += n;
			buf[len] = '\0';
			seen = strstr(buf, want);
		} else {
			usleep(1000);
		}
		if (len > sizeof(buf) / 2)
			len = 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("drained=%s poll=%s mark=%s %ld\n", drained, polled, seen ? "found" : "missing",
	       (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
	close(pfd.fd);
	return 0;
}

/*
 * fail-nth N FILE DATA|-: one write(2) of DATA to FILE, or (DATA "-") one
 * open and read of FILE to its end (without blocking), with the Nth
 * allocation of this thread made to fail (/proc/thread-self/fail-nth).
 * Prints "RESULT INJECTED": "ok" or the errno name, and 1 if the failure
 * was injected, 0 if the call made fewer than N allocations.
 */
static int cmd_fail_nth(int argc, char **argv)
{
	const char *res = "ok";
	int nth_fd, fd = -1, injected;
	char buf[4096];
	ssize_t n = 0;

	if (argc != 3)
		return 2;
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0)
		die("/proc/thread-self/fail-nth");
	if (strcmp(argv[2], "-")) {
		fd = open(argv[1], O_WRONLY);
		if (fd < 0)
			die(argv[1]);
	}
	/* From here to the call, nothing may allocate. */
	if (write(nth_fd, argv[0], strlen(argv[0])) < 0)
		die("fail-nth");
	if (fd >= 0) {
		if (write(fd, argv[2], strlen(argv[2])) < 0)
			res = errname(errno);
	} else {
		fd = open(argv[1], O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			res = errname(errno);
		while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
			;
		if (fd >= 0 && n < 0)
			res = errname(errno);
	}
	/* 0 left: the failure was injected; else disarm it. */
	n = pread(nth_fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	injected = atoi(buf) == 0;
	if (!injected && write(nth_fd, "0", 1) < 0)
		die("fail-nth");
	if (fd >= 0)
		close(fd);
	close(nth_fd);
	printf("%s %d\n", res, injected);
	return 0;
}

/*
 * sleepers N SECONDS: N processes that sleep SECONDS; prints "ready" once
 * all exist, and returns when they are gone.  Killing it kills them.
 */
static int cmd_sleepers(int argc, char **argv)
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

/*
 * sigdfl CMD [ARGS]: run CMD with SIGINT and SIGQUIT at their defaults.
 * A non-interactive shell starts background jobs with both ignored, and
 * a shell cannot trap a signal ignored when it started.
 */
static int cmd_sigdfl(int argc, char **argv)
{
	if (argc < 1)
		return 2;
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	execvp(argv[0], argv);
	die(argv[0]);
	return 1;
}

/* Pin task PID to the CPUs of LIST ("a-b" or "a,b,c"), or all if NULL. */
static void pin_list(pid_t pid, const char *list)
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
static int cmd_numa(int argc, char **argv)
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
static int cmd_cookies(int argc, char **argv)
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
static int cmd_mixed(int argc, char **argv)
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

/* The CPU task PID last ran on (/proc/PID/stat field 39), or -1. */
static int task_cpu_of(pid_t pid)
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
static int wait_any_on_cpu(const pid_t *pids, int n, int cpu, int ms)
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

static int wait_on_cpu(pid_t pid, int cpu, int ms)
{
	return wait_any_on_cpu(&pid, 1, cpu, ms);
}

/*
 * Wait until task PID sleeps, then 50 ms more: it has left its runqueue,
 * also where it was kept there as a delayed dequeue (a CFS task that
 * slept ahead of its share stays queued until it is picked).
 */
static void wait_gone_to_sleep(pid_t pid)
{
	wait_asleep(pid);
	usleep(50000);
}

static void set_fifo(pid_t pid, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	if (sched_setscheduler(pid, SCHED_FIFO, &sp))
		die("sched_setscheduler");
}

/* SCHED_DEADLINE with the given microseconds. */
static void set_dl(pid_t pid, long runtime_us, long deadline_us, long period_us)
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

/*
 * A CFS task spinning on the CPUs of LIST at nice NICE until *STOP, or
 * until its parent dies.  Returns once it spins there.
 */
static pid_t spinner(const char *list, int nice, int *stop)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin_list(0, list);
		if (setpriority(PRIO_PROCESS, 0, nice))
			die("setpriority");
		while (!flag(stop))
			;
		_exit(0);
	}
	if (!strchr(list, ',') && !strchr(list, '-'))
		wait_on_cpu(pid, atoi(list), 1000);
	return pid;
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
			/* Not pinned, but still on PREV. */
			pin_list(0, NULL);
			set_dl(0, 10000, 1000000, 1000000);
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
 *            (and this helper): the busy balance of CPU 0, the only other
 *            CPU they may use, pulls one of them by load (lb_busy_load).
 * A spinner may use the destination from BEGIN on; END is written once
 * one is there, or after 3 s.
 */
static int cmd_balance(int argc, char **argv)
{
	int *stop = shared_flags();
	pid_t pids[8], side[4], y = 0;
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
		for (i = 0; i < 3; i++)
			pids[n++] = spinner("0", 0, stop);
		random_newidle = newidle_not_random();
	} else if (!strcmp(argv[0], "idle")) {
		dst = 2;
		widen = "0,2";
		pids[n++] = spinner("0", 19, stop);
		side[ns++] = spinner("0", -20, stop);
	} else if (!strcmp(argv[0], "active")) {
		dst = 1;
		widen = "0,1";
		side[ns++] = spinner("0", 19, stop);
		pids[n++] = spinner("0", -20, stop);
	} else if (!strcmp(argv[0], "busy")) {
		dst = 0;
		widen = "0,3";
		side[ns++] = spinner("0", 0, stop);
		side[ns++] = spinner("1", 0, stop);
		side[ns++] = spinner("2", 0, stop);
		for (i = 0; i < 3; i++)
			pids[n++] = spinner("3", 0, stop);
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
	wait_any_on_cpu(pids, n, dst, 3000);
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

static const struct {
	const char *name, *args;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "write", "FILE DATA", cmd_write },
	{ "write-garbage", "FILE N", cmd_write_garbage },
	{ "write-nul", "FILE DATA", cmd_write_nul },
	{ "read", "FILE", cmd_read },
	{ "read-rw", "FILE", cmd_read_rw },
	{ "write-rw", "FILE DATA", cmd_write_rw },
	{ "write-at", "FILE OFFSET|split DATA", cmd_write_at },
	{ "as-user", "UID FILE...", cmd_as_user },
	{ "affinity", "N CPU_A CPU_B CPU_C BEGIN END", cmd_affinity },
	{ "affinity-sleep", "N CPU_A CPU_B BEGIN END", cmd_affinity_sleep },
	{ "pipe-nonblock", "FILE", cmd_pipe_nonblock },
	{ "pipe-mark", "FILE VALUE", cmd_pipe_mark },
	{ "fail-nth", "N FILE DATA|-", cmd_fail_nth },
	{ "sigdfl", "CMD [ARGS]", cmd_sigdfl },
	{ "sleepers", "N SECONDS", cmd_sleepers },
	{ "numa", "SECONDS MIB PROCS CPUS_NODE0 CPUS_NODE1 [FREE]", cmd_numa },
	{ "cookies", "SECONDS GROUPS PROCS CPUS", cmd_cookies },
	{ "pingpong", "N", cmd_pingpong },
	{ "forkexec", "N PROGRAM", cmd_forkexec },
	{ "fifo", "N MS", cmd_fifo },
	{ "deadline", "N MS", cmd_deadline },
	{ "comm", "NAME", cmd_comm },
	{ "marks", "N CPU", cmd_marks },
	{ "every", "MS N FILE DATA", cmd_every },
	{ "mixed", "SECONDS PROGRAM", cmd_mixed },
	{ "wakeup", "FORK PREV MASK WAKER SPINNERS KICK ROUNDS MARK", cmd_wakeup },
	{ "place-wake", "affine|rt|dl BEGIN END", cmd_place_wake },
	{ "place-fork", "BEGIN END", cmd_place_fork },
	{ "place-exec", "BEGIN END", cmd_place_exec },
	{ "place-push", "BEGIN END", cmd_place_push },
	{ "balance", "newidle|idle|active|busy BEGIN END", cmd_balance },
	{ "balance-util", "FROM DST N BEGIN END", cmd_balance_util },
	{ "bench-affinity", "K PROCS", cmd_bench_affinity },
	{ "bench-pingpong", "N", cmd_bench_pingpong },
	{ "storm", "SECONDS PROCS", cmd_storm },
	{ "read-time", "FILE", cmd_read_time },
};

int main(int argc, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		if (cmds[i].fn(argc - 2, argv + 2) != 2)
			return 0;
		break;
	}
	fprintf(stderr, "usage: mt_helper COMMAND ARGS...\n");
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(stderr, "  %s %s\n", cmds[i].name, cmds[i].args);
	return 2;
}
