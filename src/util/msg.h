/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_MSG_H
#define EBPFTOP_UTIL_MSG_H

#include <stddef.h>

/*
 * The one shape of a failure across modules: a function returns a
 * negative errno and writes a one-line, lower-case message for the user
 * into the caller's buffer (@msg, @len). msg_fail() does both: it formats
 * the message and returns @err, so that a failure reads
 *	return msg_fail(msg, len, -ENOENT, "program %u does not exist", id);
 * Only top-level code prints the message.
 */
int msg_fail(char *msg, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
