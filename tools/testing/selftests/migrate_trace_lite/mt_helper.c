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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "mt_helper.h"

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
