/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the root integration tests: skipping (and its strict
 * mode), a lock that serialises tests touching global BPF state, child
 * processes with pipes, the testload loader, and ebpftop's JSON records.
 */
#ifndef EBPFTOP_TESTS_TESTUTIL_H
#define EBPFTOP_TESTS_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <json-c/json.h>

/* Exit codes the automake test driver understands. */
#define TU_EXIT_SKIP 77
#define TU_EXIT_HARD 99

/*
 * The test cannot run here: exit 77, or 99 with a message when
 * EBPFTOP_TEST_STRICT=1 (CI must never pass by skipping). Every would-be
 * skip of every C test goes through here; tests/lib/testlib.sh does the
 * same for the shell tests.
 */
void tu_skip(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* The test is broken or its environment is unusable: exit 99. */
void tu_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/*
 * In a cmocka test: fail it with the message (printf format and arguments)
 * unless @cond holds.
 */
#define tu_assert(cond, ...)                  \
	do {                                  \
		if (!(cond))                  \
			fail_msg(__VA_ARGS__); \
	} while (0)

/* Whether EBPFTOP_TEST_STRICT=1 is set. */
bool tu_strict(void);

/*
 * Root, a usable bpf(), ./ebpftop and ./tests/testload (relative to
 * $top_builddir, default "."); skips otherwise.
 */
void tu_require_bpf(void);

/* @rel under $top_builddir (default "."), in @buf. */
const char *tu_builddir_path(const char *rel, char *buf, size_t len);

/*
 * Take the lock every integration test holds while it runs: they toggle
 * and observe system-wide stats, so they must not overlap (not even from
 * another build tree). $EBPFTOP_TEST_LOCK overrides the path.
 */
void tu_lock(void);

/* ---- child processes ----------------------------------------------------- */

struct tu_proc {
	pid_t pid;		/* 0: none */
	int in;			/* write end of its stdin, or -1 */
	int out;		/* read end of its stdout, or -1 */
	int err;		/* unlinked file holding its stderr, or -1 */
	char *buf;		/* stdout read but not yet returned */
	size_t len, cap, consumed;
	bool eof;
	bool reaped;
	int status;		/* wait status once reaped */
};

/*
 * Start @argv[0] with its stdout (and stdin if @want_stdin) on pipes and
 * its stderr in a file. @env is a NULL-terminated list of NAME=VALUE to
 * add (EBPFTOP_* variables are cleared first, so only these apply).
 * Returns 0 or -errno.
 */
int tu_spawn(struct tu_proc *p, char *const argv[], const char *const env[],
	     bool want_stdin);
/* When not 0, the RLIMIT_NOFILE (soft and hard) of children tu_spawn starts. */
extern unsigned long tu_spawn_nofile;
/*
 * The next line of the child's stdout without its newline, or NULL on EOF
 * or after @timeout_ms. Valid until the next call.
 */
char *tu_readline(struct tu_proc *p, int timeout_ms);
/* Close the child's stdin (EOF). */
void tu_close_stdin(struct tu_proc *p);
/* Send @sig if the child still runs. */
void tu_signal(struct tu_proc *p, int sig);
/* Wait up to @timeout_ms; true when it exited (p->status is set). */
bool tu_wait(struct tu_proc *p, int timeout_ms);
/* Exit status 0..255, or 128+signal, or -1 if still running. */
int tu_exit_code(const struct tu_proc *p);
/* What it wrote to stderr so far (malloc'd, "" if nothing). */
char *tu_stderr(struct tu_proc *p);
/* Kill (SIGKILL) if still running, reap, close everything. */
void tu_proc_free(struct tu_proc *p);

/* Run @argv to completion with a timeout; returns the tu_exit_code. */
int tu_run(char *const argv[], const char *const env[], int timeout_ms,
	   char **out, char **err);

/* ---- testload ------------------------------------------------------------ */

enum tl_prog { TL_XDP, TL_SOCKET, TL_LONG, TL_UNNAMED, TL__MAX };
extern const char *const tl_names[TL__MAX];

struct testload {
	struct tu_proc p;
	pid_t pid;
	uint32_t ids[TL__MAX];
};

/* Start ./tests/testload and read its ids. 0 or -errno. */
int tl_start(struct testload *t);
/*
 * tl_start for a cmocka setup: on failure it says why on stderr, frees
 * what it started and returns -1.
 */
int tl_setup(struct testload *t);
/* tl_stop and tu_proc_free: for a cmocka teardown. */
void tl_teardown(struct testload *t);
/*
 * What a kernel test needs before it runs: tu_require_bpf, tu_lock, and
 * one testload started and stopped (a kernel where it cannot load its
 * programs is a skip).
 */
void tl_require(void);
/* "run NAME COUNT": 0 and the counters after, or -EIO. */
int tl_run(struct testload *t, enum tl_prog p, unsigned long count,
	   uint64_t *cnt, uint64_t *ns);
/* "info NAME". */
int tl_info(struct testload *t, enum tl_prog p, uint64_t *cnt, uint64_t *ns);
/* "rate NAME PER_S". */
int tl_rate(struct testload *t, enum tl_prog p, unsigned long per_s);
/* EOF on its stdin, wait for it to unload and exit; true when it did. */
bool tl_stop(struct testload *t);
/*
 * "linkholder NAME": a child of the loader that holds the program through
 * an XDP link only (in a namespace of its own). 0 and its pid, or -EIO.
 */
int tl_linkholder(struct testload *t, enum tl_prog p, pid_t *pid);

/* ---- ebpftop records ----------------------------------------------------- */

/* Parse the next JSON Lines record of @p (NULL on EOF, timeout, bad JSON). */
struct json_object *tu_next_record(struct tu_proc *p, int timeout_ms,
				   char **raw);
/* The program with @id in a record's "programs", or NULL. */
struct json_object *tu_record_prog(struct json_object *rec, uint32_t id);
/* obj[key], NULL when missing or JSON null. */
struct json_object *tu_get(struct json_object *obj, const char *key);
/* Whether @key exists (even as null). */
bool tu_has(struct json_object *obj, const char *key);
/* A JSON number (int or double) as double; NAN if null or not a number. */
double tu_num(struct json_object *obj, const char *key);
/* A JSON integer (digits only) as uint64; false if absent or not one. */
bool tu_u64(struct json_object *obj, const char *key, uint64_t *v);

/* ---- system state -------------------------------------------------------- */

#define TU_STATS_SYSCTL "/proc/sys/kernel/bpf_stats_enabled"

/* Value of an integer sysctl file, or -errno. */
int tu_sysctl_get(const char *path);
int tu_sysctl_set(const char *path, int v);

/*
 * Processes other than @except_n pids in @except that are named @comm, or
 * hold a file whose /proc/PID/fd link reads @fd_target (either may be
 * NULL). Fills up to @max pids; returns how many were found.
 */
size_t tu_find_procs(const char *comm, const char *fd_target,
		     const pid_t *except, size_t except_n, pid_t *out,
		     size_t max);
/* Processes holding a program fd or link on program @id. */
size_t tu_find_prog_holders(uint32_t id, pid_t *out, size_t max);
/* Whether process @pid holds a program fd or link on program @id. */
bool tu_pid_holds_prog(pid_t pid, uint32_t id);
/* Whether process @pid holds a program fd or link on a program named @name. */
bool tu_pid_holds_prog_named(pid_t pid, const char *name);
/* A process's comm ("?" when gone). */
const char *tu_comm(pid_t pid, char *buf, size_t len);
/* Whether program @id is loaded; takes no reference on it. */
bool tu_prog_exists(uint32_t id);
/*
 * Wait up to @timeout_ms for program @id to be freed (as long as some
 * process holds it: one with no holder at all fails after a second).
 * False if it is still loaded, with " comm(pid)..." of its holders in @who.
 */
bool tu_wait_prog_gone(uint32_t id, int timeout_ms, char *who, size_t len);

/* ---- the profiler's programs ------------------------------------------ */

/* The BTF type id of program @id's main function (0: none). */
uint32_t tu_prog_func(uint32_t id);
/* Tracing links attached to program @id; up to @max of their programs in @progs. */
size_t tu_tracing_links(uint32_t id, uint32_t *progs, size_t max);
/*
 * ebpftop's profiler programs for BTF function @func (attached or not) and
 * its calibration programs: what must not outlive a profile.
 */
size_t tu_profiler_progs(uint32_t func);
/*
 * Wait up to @timeout_ms for nothing of the profiler to be left on program
 * @id (whose function is @func): programs are freed after an RCU grace
 * period, so this polls.
 */
bool tu_profiler_gone(uint32_t id, uint32_t func, int timeout_ms);

/* CLOCK_MONOTONIC in ms. */
int64_t tu_now_ms(void);
void tu_sleep_ms(int ms);

#endif
