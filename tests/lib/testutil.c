// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "testutil.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

const char *const tl_names[TL__MAX] = { "xdp", "socket", "long", "unnamed" };
unsigned long tu_spawn_nofile;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

bool tu_strict(void)
{
	const char *s = getenv("EBPFTOP_TEST_STRICT");

	return s && !strcmp(s, "1");
}

void tu_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (tu_strict()) {
		vmsg("FAIL (EBPFTOP_TEST_STRICT=1 turns this skip into a failure): ",
		     fmt, ap);
		va_end(ap);
		exit(TU_EXIT_HARD);
	}
	vmsg("SKIP: ", fmt, ap);
	va_end(ap);
	exit(TU_EXIT_SKIP);
}

void tu_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("ERROR: ", fmt, ap);
	va_end(ap);
	exit(TU_EXIT_HARD);
}

const char *tu_builddir_path(const char *rel, char *buf, size_t len)
{
	const char *top = getenv("top_builddir");

	snprintf(buf, len, "%s/%s", top && *top ? top : ".", rel);
	return buf;
}

void tu_require_bpf(void)
{
	char path[4096];
	__u32 id;

	if (geteuid() != 0)
		tu_skip("needs root (CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN) to load and watch BPF programs");
	if (bpf_prog_get_next_id(0, &id) && errno != ENOENT)
		tu_skip("bpf() is not usable here: %s", strerror(errno));
	if (access(tu_builddir_path("ebpftop", path, sizeof(path)), X_OK))
		tu_die("%s: %s (run from the build directory, through make check)",
		       path, strerror(errno));
	if (access(tu_builddir_path("tests/testload", path, sizeof(path)), X_OK))
		tu_die("%s: %s (run from the build directory, through make check)",
		       path, strerror(errno));
}

void tu_lock(void)
{
	const char *path = getenv("EBPFTOP_TEST_LOCK");
	int64_t deadline = tu_now_ms() + 300 * 1000;
	bool said = false;
	int fd;

	if (!path || !*path)
		path = "/tmp/ebpftop-integration-tests.lock";
	/* Held until exit on purpose: the kernel drops it however we die. */
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		tu_die("cannot open the test lock %s: %s", path, strerror(errno));
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			tu_die("cannot lock %s: %s", path, strerror(errno));
		if (tu_now_ms() > deadline)
			tu_die("another integration test has held %s for 5 minutes",
			       path);
		if (!said) {
			printf("# waiting for %s (another integration test runs)\n",
			       path);
			fflush(stdout);
			said = true;
		}
		tu_sleep_ms(100);
	}
}

int64_t tu_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void tu_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- child processes ----------------------------------------------------- */

static void child_setup(const char *const env[], int in, int out, int err,
			pid_t parent)
{
	static const int sigs[] = { SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP,
				    SIGCHLD };
	static const char *const clear[] = { "EBPFTOP_NO_PROG_ITER",
					     "EBPFTOP_NO_PID_ITER",
					     "EBPFTOP_STATS_SYSCTL" };
	struct rlimit no_core = { 0, 0 };
	sigset_t all;

	/* Tests send fatal signals: no core files in the build tree. */
	setrlimit(RLIMIT_CORE, &no_core);
	if (tu_spawn_nofile) {
		struct rlimit lim = { tu_spawn_nofile, tu_spawn_nofile };

		if (setrlimit(RLIMIT_NOFILE, &lim))
			_exit(127);
	}
	/* If the test dies, its children go too (SIGTERM: let them clean up). */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
	if (in < 0)
		in = open("/dev/null", O_RDONLY);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	for (size_t i = 0; i < sizeof(clear) / sizeof(clear[0]); i++)
		unsetenv(clear[i]);
	for (size_t i = 0; env && env[i]; i++)
		putenv(strdup(env[i]));
}

int tu_spawn(struct tu_proc *p, char *const argv[], const char *const env[],
	     bool want_stdin)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err = -1, e;
	pid_t parent = getpid();
	char tmpl[] = "/tmp/ebpftop-test-stderr.XXXXXX";

	memset(p, 0, sizeof(*p));
	p->in = p->out = p->err = -1;
	if (want_stdin && pipe2(in, O_CLOEXEC))
		return -errno;
	if (pipe2(out, O_CLOEXEC))
		goto fail;
	err = mkostemp(tmpl, O_CLOEXEC);
	if (err < 0)
		goto fail;
	unlink(tmpl);
	fflush(NULL);
	p->pid = fork();
	if (p->pid < 0)
		goto fail;
	if (!p->pid) {
		child_setup(env, in[0], out[1], err, parent);
		execv(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (in[0] >= 0)
		close(in[0]);
	close(out[1]);
	p->in = in[1];
	p->out = out[0];
	p->err = err;
	return 0;
fail:
	e = -errno;
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	if (err >= 0)
		close(err);
	p->pid = 0;
	return e;
}

char *tu_readline(struct tu_proc *p, int timeout_ms)
{
	int64_t deadline = tu_now_ms() + timeout_ms;

	if (p->consumed) {
		memmove(p->buf, p->buf + p->consumed, p->len - p->consumed);
		p->len -= p->consumed;
		p->consumed = 0;
	}
	for (;;) {
		char *nl = p->len ? memchr(p->buf, '\n', p->len) : NULL;
		struct pollfd pfd = { .fd = p->out, .events = POLLIN };
		int64_t left;
		ssize_t n;

		if (nl) {
			*nl = '\0';
			p->consumed = (size_t)(nl - p->buf) + 1;
			return p->buf;
		}
		if (p->eof || p->out < 0) {
			if (!p->len)
				return NULL;
			/* A last line without its newline. */
			p->buf[p->len] = '\0';
			p->consumed = p->len;
			return p->buf;
		}
		left = deadline - tu_now_ms();
		if (left <= 0)
			return NULL;
		if (poll(&pfd, 1, (int)left) <= 0)
			continue;
		if (p->cap - p->len < 65536 + 1) {
			size_t cap = p->cap ? p->cap * 2 : 131072;
			char *b = realloc(p->buf, cap);

			if (!b)
				return NULL;
			p->buf = b;
			p->cap = cap;
		}
		n = read(p->out, p->buf + p->len, p->cap - p->len - 1);
		if (n > 0)
			p->len += (size_t)n;
		else if (n == 0 || errno != EINTR)
			p->eof = true;
	}
}

void tu_close_stdin(struct tu_proc *p)
{
	if (p->in >= 0) {
		close(p->in);
		p->in = -1;
	}
}

void tu_signal(struct tu_proc *p, int sig)
{
	if (p->pid > 0 && !p->reaped)
		kill(p->pid, sig);
}

bool tu_wait(struct tu_proc *p, int timeout_ms)
{
	int64_t deadline = tu_now_ms() + timeout_ms;

	if (p->pid <= 0)
		return false;
	while (!p->reaped) {
		pid_t r = waitpid(p->pid, &p->status, WNOHANG);

		if (r == p->pid) {
			p->reaped = true;
			break;
		}
		if (r < 0 && errno != EINTR)
			return false;
		if (tu_now_ms() > deadline)
			return false;
		tu_sleep_ms(5);
	}
	return true;
}

int tu_exit_code(const struct tu_proc *p)
{
	if (!p->reaped)
		return -1;
	if (WIFEXITED(p->status))
		return WEXITSTATUS(p->status);
	if (WIFSIGNALED(p->status))
		return 128 + WTERMSIG(p->status);
	return -1;
}

char *tu_stderr(struct tu_proc *p)
{
	struct stat st;
	char *s;
	ssize_t n;

	if (p->err < 0 || fstat(p->err, &st))
		return strdup("");
	s = calloc(1, (size_t)st.st_size + 1);
	if (!s)
		return NULL;
	n = pread(p->err, s, (size_t)st.st_size, 0);
	s[n > 0 ? n : 0] = '\0';
	return s;
}

void tu_proc_free(struct tu_proc *p)
{
	if (p->pid > 0 && !p->reaped) {
		kill(p->pid, SIGKILL);
		while (waitpid(p->pid, &p->status, 0) < 0 && errno == EINTR)
			;
		p->reaped = true;
	}
	tu_close_stdin(p);
	if (p->out >= 0)
		close(p->out);
	if (p->err >= 0)
		close(p->err);
	free(p->buf);
	p->out = p->err = -1;
	p->buf = NULL;
	p->len = p->cap = p->consumed = 0;
}

int tu_run(char *const argv[], const char *const env[], int timeout_ms,
	   char **out, char **err)
{
	int64_t deadline = tu_now_ms() + timeout_ms;
	struct tu_proc p;
	size_t olen = 0;
	char *o = NULL;
	int code;

	if (tu_spawn(&p, argv, env, false))
		return -1;
	for (;;) {
		int64_t left = deadline - tu_now_ms();
		char *line = tu_readline(&p, left > 0 ? (int)left : 0);
		size_t l;
		char *n;

		if (!line)
			break;
		l = strlen(line);
		n = realloc(o, olen + l + 2);
		if (!n)
			break;
		o = n;
		memcpy(o + olen, line, l);
		o[olen + l] = '\n';
		olen += l + 1;
		o[olen] = '\0';
	}
	{
		int64_t left = deadline - tu_now_ms();

		tu_wait(&p, left > 0 ? (int)left : 0);
	}
	code = tu_exit_code(&p);
	if (err)
		*err = tu_stderr(&p);
	if (out)
		*out = o ? o : strdup("");
	else
		free(o);
	tu_proc_free(&p);
	return code;
}

/* ---- testload ------------------------------------------------------------ */

int tl_start(struct testload *t)
{
	char path[4096], *line;
	char *argv[] = { path, NULL };
	struct json_object *o;
	int err;

	memset(t, 0, sizeof(*t));
	tu_builddir_path("tests/testload", path, sizeof(path));
	err = tu_spawn(&t->p, argv, NULL, true);
	if (err)
		return err;
	line = tu_readline(&t->p, 10000);
	if (!line)
		return -EIO;
	o = json_tokener_parse(line);
	if (!o)
		return -EIO;
	t->pid = (pid_t)json_object_get_int(tu_get(o, "pid"));
	for (int i = 0; i < TL__MAX; i++)
		t->ids[i] = (uint32_t)json_object_get_int64(tu_get(o, tl_names[i]));
	json_object_put(o);
	for (int i = 0; i < TL__MAX; i++) {
		if (!t->ids[i])
			return -EIO;
	}
	return t->pid == t->p.pid ? 0 : -EIO;
}

static int tl_cmd(struct testload *t, const char *cmd, uint64_t *cnt,
		  uint64_t *ns)
{
	unsigned long long c, n;
	size_t len = strlen(cmd);
	char *line;

	if (t->p.in < 0 || write(t->p.in, cmd, len) != (ssize_t)len)
		return -EIO;
	line = tu_readline(&t->p, 10000);
	if (!line) {
		fprintf(stderr, "testload: no answer to %s", cmd);
		return -EIO;
	}
	if (!cnt)
		return strcmp(line, "ok") ? -EIO : 0;
	if (sscanf(line, "ok %llu %llu", &c, &n) != 2) {
		fprintf(stderr, "testload: %s -> %s\n", cmd, line);
		return -EIO;
	}
	*cnt = c;
	*ns = n;
	return 0;
}

int tl_run(struct testload *t, enum tl_prog p, unsigned long count,
	   uint64_t *cnt, uint64_t *ns)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "run %s %lu\n", tl_names[p], count);
	return tl_cmd(t, cmd, cnt, ns);
}

int tl_info(struct testload *t, enum tl_prog p, uint64_t *cnt, uint64_t *ns)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "info %s\n", tl_names[p]);
	return tl_cmd(t, cmd, cnt, ns);
}

int tl_rate(struct testload *t, enum tl_prog p, unsigned long per_s)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rate %s %lu\n", tl_names[p], per_s);
	return tl_cmd(t, cmd, NULL, NULL);
}

int tl_linkholder(struct testload *t, enum tl_prog p, pid_t *pid)
{
	char cmd[64], *line;
	int v;

	snprintf(cmd, sizeof(cmd), "linkholder %s\n", tl_names[p]);
	if (t->p.in < 0 || write(t->p.in, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return -EIO;
	line = tu_readline(&t->p, 10000);
	if (!line || sscanf(line, "ok %d", &v) != 1 || v <= 0) {
		fprintf(stderr, "testload: %s -> %s\n", cmd, line ? line : "(nothing)");
		return -EIO;
	}
	*pid = (pid_t)v;
	return 0;
}

bool tl_stop(struct testload *t)
{
	tu_close_stdin(&t->p);
	return tu_wait(&t->p, 10000);
}

int tl_setup(struct testload *t)
{
	int err = tl_start(t);
	char *e;

	if (!err)
		return 0;
	e = tu_stderr(&t->p);
	fprintf(stderr, "testload did not start: %s %s\n", strerror(-err),
		e ? e : "");
	free(e);
	tu_proc_free(&t->p);
	return -1;
}

void tl_teardown(struct testload *t)
{
	tl_stop(t);
	tu_proc_free(&t->p);
}

void tl_require(void)
{
	struct testload t;

	tu_require_bpf();
	tu_lock();
	/* Load once up front: a kernel that cannot is a skip, not a failure. */
	if (tl_setup(&t))
		tu_skip("the test loader cannot load its programs here");
	tl_teardown(&t);
}

/* ---- ebpftop records ----------------------------------------------------- */

struct json_object *tu_next_record(struct tu_proc *p, int timeout_ms,
				   char **raw)
{
	char *line = tu_readline(p, timeout_ms);
	struct json_object *o;

	if (raw)
		*raw = line;
	if (!line)
		return NULL;
	o = json_tokener_parse(line);
	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *tu_get(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	if (!obj || !json_object_object_get_ex(obj, key, &v))
		return NULL;
	return v;
}

bool tu_has(struct json_object *obj, const char *key)
{
	return obj && json_object_object_get_ex(obj, key, NULL);
}

struct json_object *tu_record_prog(struct json_object *rec, uint32_t id)
{
	struct json_object *progs = tu_get(rec, "programs");
	size_t n;

	if (!progs || !json_object_is_type(progs, json_type_array))
		return NULL;
	n = json_object_array_length(progs);
	for (size_t i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(progs, i);
		uint64_t pid;

		if (tu_u64(p, "id", &pid) && pid == id)
			return p;
	}
	return NULL;
}

double tu_num(struct json_object *obj, const char *key)
{
	struct json_object *v = tu_get(obj, key);

	if (!v || !(json_object_is_type(v, json_type_int) ||
		    json_object_is_type(v, json_type_double)))
		return NAN;
	return json_object_get_double(v);
}

bool tu_u64(struct json_object *obj, const char *key, uint64_t *v)
{
	struct json_object *o = tu_get(obj, key);

	if (!o || !json_object_is_type(o, json_type_int))
		return false;
	if (json_object_get_int64(o) < 0)
		return false;
	*v = json_object_get_uint64(o);
	return true;
}

/* ---- system state -------------------------------------------------------- */

int tu_sysctl_get(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return atoi(buf);
}

int tu_sysctl_set(const char *path, int v)
{
	char buf[32];
	int fd = open(path, O_WRONLY | O_CLOEXEC), len;
	ssize_t n;

	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%d\n", v);
	n = write(fd, buf, (size_t)len);
	close(fd);
	return n == len ? 0 : -EIO;
}

const char *tu_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	snprintf(buf, len, "?");
	f = fopen(path, "re");
	if (!f)
		return buf;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return buf;
}

/* The program id behind fd @fd of @pid (a program or a link), or 0. */
static uint32_t fd_prog_id(pid_t pid, const char *fd)
{
	char path[320], target[64], buf[1024], *s;
	uint32_t id = 0;
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "/proc/%d/fd/%s", (int)pid, fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	if (strcmp(target, "anon_inode:bpf-prog") &&
	    strcmp(target, "anon_inode:bpf_link"))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", (int)pid, fd);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return 0;
	n = read(f, buf, sizeof(buf) - 1);
	close(f);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	s = strstr(buf, "prog_id:");
	if (s)
		id = (uint32_t)strtoul(s + strlen("prog_id:"), NULL, 10);
	return id;
}

/* Calls @fn for every fd of @pid until it returns true. */
static bool each_fd(pid_t pid, bool (*fn)(pid_t, const char *, const void *),
		    const void *arg)
{
	char path[64];
	struct dirent *de;
	bool hit = false;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return false;
	while (!hit && (de = readdir(d))) {
		if (de->d_name[0] != '.')
			hit = fn(pid, de->d_name, arg);
	}
	closedir(d);
	return hit;
}

static bool fd_is_target(pid_t pid, const char *fd, const void *arg)
{
	char path[320], target[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%s", (int)pid, fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return !strcmp(target, arg);
}

static bool fd_is_prog(pid_t pid, const char *fd, const void *arg)
{
	return fd_prog_id(pid, fd) == *(const uint32_t *)arg;
}

bool tu_pid_holds_prog(pid_t pid, uint32_t id)
{
	return each_fd(pid, fd_is_prog, &id);
}

static bool fd_is_prog_named(pid_t pid, const char *fd, const void *arg)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	uint32_t id = fd_prog_id(pid, fd);
	bool same;
	int pfd;

	if (!id)
		return false;
	pfd = bpf_prog_get_fd_by_id(id);
	if (pfd < 0)
		return false;
	same = !bpf_obj_get_info_by_fd(pfd, &info, &len) &&
	       !strncmp(info.name, arg, sizeof(info.name));
	close(pfd);
	return same;
}

bool tu_pid_holds_prog_named(pid_t pid, const char *name)
{
	return each_fd(pid, fd_is_prog_named, name);
}

static size_t scan_procs(const char *comm, const char *fd_target,
			 const uint32_t *prog_id, const pid_t *except,
			 size_t except_n, pid_t *out, size_t max)
{
	pid_t self = getpid();
	struct dirent *de;
	size_t n = 0;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char c[64];
		bool skip = false, hit = false;
		pid_t pid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = (pid_t)atoi(de->d_name);
		if (pid == self)
			continue;
		for (size_t i = 0; i < except_n; i++)
			skip |= except[i] == pid;
		if (skip)
			continue;
		if (comm && !strcmp(tu_comm(pid, c, sizeof(c)), comm))
			hit = true;
		if (!hit && fd_target)
			hit = each_fd(pid, fd_is_target, fd_target);
		if (!hit && prog_id)
			hit = each_fd(pid, fd_is_prog, prog_id);
		if (hit && n < max)
			out[n++] = pid;
	}
	closedir(d);
	return n;
}

size_t tu_find_procs(const char *comm, const char *fd_target,
		     const pid_t *except, size_t except_n, pid_t *out,
		     size_t max)
{
	return scan_procs(comm, fd_target, NULL, except, except_n, out, max);
}

size_t tu_find_prog_holders(uint32_t id, pid_t *out, size_t max)
{
	return scan_procs(NULL, NULL, &id, NULL, 0, out, max);
}

bool tu_prog_exists(uint32_t id)
{
	__u32 next;

	/* The id walk takes no reference, unlike opening an fd by id. */
	if (bpf_prog_get_next_id(id - 1, &next))
		return false;
	return next == id;
}

static void describe(const pid_t *pids, size_t n, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char c[32];

		snprintf(buf + strlen(buf), len - strlen(buf), " %s(%d)",
			 tu_comm(pids[i], c, sizeof(c)), (int)pids[i]);
	}
}

bool tu_wait_prog_gone(uint32_t id, int timeout_ms, char *who, size_t len)
{
	int64_t deadline = tu_now_ms() + timeout_ms, orphan_since = 0;
	pid_t pids[16];
	size_t n;

	who[0] = '\0';
	while (tu_prog_exists(id)) {
		int64_t now = tu_now_ms();

		n = tu_find_prog_holders(id, pids, 16);
		describe(pids, n, who, len);
		if (n)
			orphan_since = 0;
		else if (!orphan_since)
			orphan_since = now;
		/* A second with no holder at all: nobody is going to let go. */
		if (now > deadline || (orphan_since && now - orphan_since > 1000)) {
			if (!n)
				snprintf(who, len,
					 " nobody with an fd or link (a leaked reference)");
			return false;
		}
		tu_sleep_ms(50);
	}
	return true;
}

/* ---- the profiler's programs ------------------------------------------ */

uint32_t tu_prog_func(uint32_t id)
{
	struct bpf_prog_info info = {};
	struct bpf_func_info fi = {};
	__u32 len = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id);
	uint32_t type = 0;

	if (fd < 0)
		return 0;
	info.nr_func_info = 1;
	info.func_info_rec_size = sizeof(fi);
	info.func_info = (__u64)(unsigned long)&fi;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.nr_func_info)
		type = fi.type_id;
	close(fd);
	return type;
}

/*
 * Walk the ids of one kind of object (programs or links); count those for
 * which @match holds on an fd of theirs, and keep up to @max of the
 * program ids it gives in @progs.
 */
static size_t count_objs(int (*next_id)(__u32, __u32 *), int (*fd_by_id)(__u32),
			 bool (*match)(int fd, uint32_t key, uint32_t *prog),
			 uint32_t key, uint32_t *progs, size_t max)
{
	__u32 id = 0;
	size_t n = 0;

	while (!next_id(id, &id)) {
		int fd = fd_by_id(id);
		uint32_t prog = 0;

		if (fd < 0)
			continue; /* gone meanwhile */
		if (match(fd, key, &prog)) {
			if (n < max)
				progs[n] = prog;
			n++;
		}
		close(fd);
	}
	return n;
}

/* A tracing link attached to program @target. */
static bool traces(int fd, uint32_t target, uint32_t *prog)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    info.type != BPF_LINK_TYPE_TRACING ||
	    info.tracing.target_obj_id != target)
		return false;
	*prog = info.prog_id;
	return true;
}

/* A profiler program for BTF function @func, or a calibration program. */
static bool profiles(int fd, uint32_t func, uint32_t *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return false;
	*prog = info.id;
	return (info.type == BPF_PROG_TYPE_TRACING && info.attach_btf_id == func &&
		!strncmp(info.name, "ebpftop_f", 9)) ||
	       !strcmp(info.name, "ebpftop_calib");
}

size_t tu_tracing_links(uint32_t id, uint32_t *progs, size_t max)
{
	return count_objs(bpf_link_get_next_id, bpf_link_get_fd_by_id, traces,
			  id, progs, max);
}

size_t tu_profiler_progs(uint32_t func)
{
	return count_objs(bpf_prog_get_next_id, bpf_prog_get_fd_by_id, profiles,
			  func, NULL, 0);
}

bool tu_profiler_gone(uint32_t id, uint32_t func, int timeout_ms)
{
	int64_t deadline = tu_now_ms() + timeout_ms;

	while (tu_tracing_links(id, NULL, 0) || tu_profiler_progs(func)) {
		if (tu_now_ms() > deadline)
			return false;
		tu_sleep_ms(50);
	}
	return true;
}
