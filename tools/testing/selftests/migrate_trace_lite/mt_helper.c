// SPDX-License-Identifier: GPL-2.0
/*
 * Helper for the migrate_trace_lite selftests and demo.  This file: exact
 * writes to and reads of the control files, reporting the errno by name,
 * marks, and timed reads; the workloads whose migrations are known are in
 * mt_load.c, linked into the same program.
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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "mt_helper.h"
#include "mt_load.h"

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

/* mkdir or rmdir of DIR: prints "ok" or the errno name. */
static int cmd_mkdir(int argc, char **argv)
{
	if (argc != 1)
		return 2;
	printf("%s\n", mkdir(argv[0], 0755) < 0 ? errname(errno) : "ok");
	return 0;
}

static int cmd_rmdir(int argc, char **argv)
{
	if (argc != 1)
		return 2;
	printf("%s\n", rmdir(argv[0]) < 0 ? errname(errno) : "ok");
	return 0;
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

/*
 * One write(2) of DATA to FILE every MS milliseconds, N times, on an
 * absolute schedule; prints how many writes failed.  With PHASE_US (0 to
 * MS ms), the schedule starts PHASE_US microseconds after the next
 * multiple of MS on CLOCK_MONOTONIC, with the least timer slack: the
 * kernel's ticks fall on multiples of the tick period of that clock, so
 * the writes keep a known place between two ticks.
 */
static int cmd_every(int argc, char **argv)
{
	struct timespec next;
	int ms, n, i, fd, failed = 0;
	long long period, phase = 0;

	if (argc != 4 && argc != 5)
		return 2;
	ms = atoi(argv[0]);
	n = atoi(argv[1]);
	period = ms * 1000000LL;
	if (argc == 5)
		phase = atoll(argv[4]) * 1000;
	if (ms <= 0 || phase < 0 || phase >= period)
		return 2;
	fd = open(argv[2], O_WRONLY);
	if (fd < 0)
		die(argv[2]);
	clock_gettime(CLOCK_MONOTONIC, &next);
	if (argc == 5) {
		long long t = next.tv_sec * 1000000000LL + next.tv_nsec;

		if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL))
			die("PR_SET_TIMERSLACK");
		t = (t / period + 1) * period + phase;
		next.tv_sec = t / 1000000000LL;
		next.tv_nsec = t % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
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
 * Open FILE, read it to the end and close it, every MS milliseconds, N
 * times, on the absolute schedule of "every" with PHASE_US; prints how
 * many rounds failed, then the lines of the last read.
 */
static int cmd_poll(int argc, char **argv)
{
	long long period, phase, t;
	unsigned long long lines = 0;
	struct timespec next;
	int ms, n, i, fd, failed = 0;
	char buf[65536];
	ssize_t len, j;

	if (argc != 4)
		return 2;
	ms = atoi(argv[0]);
	n = atoi(argv[1]);
	period = ms * 1000000LL;
	phase = atoll(argv[3]) * 1000;
	if (ms <= 0 || phase < 0 || phase >= period)
		return 2;
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL))
		die("PR_SET_TIMERSLACK");
	clock_gettime(CLOCK_MONOTONIC, &next);
	t = next.tv_sec * 1000000000LL + next.tv_nsec;
	t = (t / period + 1) * period + phase;
	for (i = 0; i < n; i++, t += period) {
		next.tv_sec = t / 1000000000LL;
		next.tv_nsec = t % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		fd = open(argv[2], O_RDONLY);
		if (fd < 0) {
			failed++;
			continue;
		}
		lines = 0;
		while ((len = read(fd, buf, sizeof(buf))) > 0)
			for (j = 0; j < len; j++)
				lines += buf[j] == '\n';
		if (len < 0)
			failed++;
		close(fd);
	}
	printf("%d %llu\n", failed, lines);
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
 * read-cpu FILE: read FILE to its end in 64 KiB reads, as read-time does,
 * and print "CPU_NS BYTES LINES": the CPU time of the reading thread
 * (CLOCK_THREAD_CPUTIME_ID), its own work only, whatever the other CPUs
 * do.  Under QEMU's -icount a guest nanosecond is an instruction.
 */
static unsigned long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmd_read_cpu(int argc, char **argv)
{
	unsigned long long t0, t, bytes = 0, lines = 0;
	static char buf[65536];
	ssize_t n, i;
	int fd;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		die(argv[0]);
	t = 0;
	while (1) {
		t0 = cpu_ns();
		n = read(fd, buf, sizeof(buf));
		t += cpu_ns() - t0;
		if (n <= 0)
			break;
		bytes += n;
		for (i = 0; i < n; i++)
			lines += buf[i] == '\n';
	}
	if (n < 0)
		die("read");
	close(fd);
	printf("%llu %llu %llu\n", t, bytes, lines);
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

static const struct mt_cmd cmds[] = {
	{ "write", "FILE DATA", cmd_write },
	{ "mkdir", "DIR", cmd_mkdir },
	{ "rmdir", "DIR", cmd_rmdir },
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
	{ "every", "MS N FILE DATA [PHASE_US]", cmd_every },
	{ "poll", "MS N FILE PHASE_US", cmd_poll },
	{ "mixed", "SECONDS PROGRAM", cmd_mixed },
	{ "bench-affinity", "K PROCS [NCPU]", cmd_bench_affinity },
	{ "bench-pingpong", "N", cmd_bench_pingpong },
	{ "storm", "SECONDS PROCS [NCPU]", cmd_storm },
	{ "read-time", "FILE", cmd_read_time },
	{ "read-cpu", "FILE", cmd_read_cpu },
};

int main(int argc, char **argv)
{
	return mt_main(cmds, ARRAY_SIZE(cmds), argc, argv);
}
