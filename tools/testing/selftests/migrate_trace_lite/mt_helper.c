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
#include <sys/prctl.h>
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
 * N SCHED_FIFO processes of distinct priorities, more than there are
 * CPUs, alternating short bursts and sleeps for MS milliseconds: the RT
 * class pushes and pulls them between CPUs.
 */
static void fifo(int n, int ms)
{
	pid_t *kids;
	int i;

	kids = calloc(n, sizeof(*kids));
	if (!kids)
		die("calloc");
	for (i = 0; i < n; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (kids[i] == 0) {
			struct sched_param sp = { .sched_priority = 10 + i };
			struct timespec t0, t;

			if (sched_setscheduler(0, SCHED_FIFO, &sp))
				die("sched_setscheduler");
			clock_gettime(CLOCK_MONOTONIC, &t0);
			do {
				spin_us(300 + 100 * i);
				usleep(200);
				clock_gettime(CLOCK_MONOTONIC, &t);
			} while ((t.tv_sec - t0.tv_sec) * 1000L +
				 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
			_exit(0);
		}
	}
	for (i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	free(kids);
}

static int cmd_fifo(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	fifo(atoi(argv[0]), atoi(argv[1]));
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

/* The demo/test mix, all at once, for SECONDS seconds. */
static int cmd_mixed(int argc, char **argv)
{
	int secs, ncpu, i;
	pid_t kids[4];
	time_t stop;

	if (argc != 2)
		return 2;
	secs = atoi(argv[0]);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	stop = time(NULL) + secs;
	for (i = 0; i < 4; i++) {
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
					fifo(4, 200);
				sleep(1);
				break;
			}
		}
		_exit(0);
	}
	for (i = 0; i < 4; i++)
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
	{ "pingpong", "N", cmd_pingpong },
	{ "forkexec", "N PROGRAM", cmd_forkexec },
	{ "fifo", "N MS", cmd_fifo },
	{ "comm", "NAME", cmd_comm },
	{ "marks", "N CPU", cmd_marks },
	{ "mixed", "SECONDS PROGRAM", cmd_mixed },
	{ "bench-affinity", "K PROCS", cmd_bench_affinity },
	{ "bench-pingpong", "N", cmd_bench_pingpong },
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
