// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "collect/stats.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpf/bpf.h>

struct stats_ctl {
	int fd;			/* BPF_ENABLE_STATS fd, or -1 */
	int sysctl_fd;		/* the sysctl, open for reading, or -1 */
	bool use_sysctl;	/* the fd call is unavailable (or forced off) */
	bool sysctl_set;	/* ebpftop wrote 1 to the sysctl */
};

/* The signal handler's view of sysctl_set: only ever 0 -> 1 -> 0. */
static volatile sig_atomic_t emergency_sysctl_set;

/*
 * The sysctl's value, 1 or 0. Read at every refresh: the file stays open
 * and each read starts again at offset 0, which makes the kernel format
 * the current value anew.
 */
static int sysctl_read(struct stats_ctl *c)
{
	char v = 0;
	ssize_t r;

	if (c->sysctl_fd < 0) {
		c->sysctl_fd = open(STATS_SYSCTL, O_RDONLY | O_CLOEXEC);
		if (c->sysctl_fd < 0)
			return -errno;
	}
	r = pread(c->sysctl_fd, &v, 1, 0);
	if (r != 1)
		return r < 0 ? -errno : -EIO;
	return v == '1';
}

/* Async-signal-safe: open/write/close only. */
static int sysctl_write(int on)
{
	int fd = open(STATS_SYSCTL, O_WRONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return -errno;
	r = write(fd, on ? "1\n" : "0\n", 2);
	close(fd);
	return r == 2 ? 0 : -EIO;
}

void stats_emergency_restore(void)
{
	if (emergency_sysctl_set) {
		sysctl_write(0);
		emergency_sysctl_set = 0;
	}
}

static int stats_on(struct stats_ctl *c)
{
	int fd, err;

	if (!c->use_sysctl) {
		fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (fd >= 0) {
			c->fd = fd;
			return 0;
		}
		err = -errno;
		/* Kernels before 5.8 know only the sysctl. */
		if (err != -EINVAL && err != -ENOSYS)
			return err;
		c->use_sysctl = true;
	}
	if (sysctl_read(c) == 1)
		return 0;	/* someone else's: nothing to undo later */
	err = sysctl_write(1);
	if (err)
		return err;
	c->sysctl_set = true;
	emergency_sysctl_set = 1;
	return 0;
}

static void stats_off(struct stats_ctl *c)
{
	if (c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
	if (c->sysctl_set) {
		sysctl_write(0);
		c->sysctl_set = false;
		emergency_sysctl_set = 0;
	}
}

int stats_ctl__new(struct stats_ctl **out, bool enable, bool force_sysctl)
{
	struct stats_ctl *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return -ENOMEM;
	c->fd = -1;
	c->sysctl_fd = -1;
	c->use_sysctl = force_sysctl;
	if (enable) {
		err = stats_on(c);
		if (err) {
			stats_ctl__free(c);
			return err;
		}
	}
	*out = c;
	return 0;
}

void stats_ctl__free(struct stats_ctl *c)
{
	if (!c)
		return;
	stats_off(c);
	if (c->sysctl_fd >= 0)
		close(c->sysctl_fd);
	free(c);
}

enum stats_state stats_ctl__state(struct stats_ctl *c)
{
	/* A sysctl at 1 that ebpftop did not write belongs to someone else. */
	if (!c->sysctl_set && sysctl_read(c) == 1)
		return STATS_ON_SYSTEM;
	if (c->fd >= 0)
		return STATS_ON_FD;
	if (c->sysctl_set)
		return STATS_ON_SYSCTL;
	return STATS_OFF;
}

int stats_ctl__toggle(struct stats_ctl *c)
{
	enum stats_state s = stats_ctl__state(c);

	if (s == STATS_ON_SYSTEM)
		return -EBUSY;
	if (s == STATS_OFF)
		return stats_on(c);
	stats_off(c);
	return 0;
}

const char *stats_state_str(enum stats_state s)
{
	switch (s) {
	case STATS_ON_FD:
		return "on";
	case STATS_ON_SYSCTL:
		return "on (sysctl)";
	case STATS_ON_SYSTEM:
		return "on (system-wide)";
	case STATS_OFF:
	default:
		return "off";
	}
}
