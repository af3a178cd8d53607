/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_EXPORT_MHD_LIB_H
#define EBPFTOP_EXPORT_MHD_LIB_H

/*
 * The libmicrohttpd functions --listen calls, through libmicrohttpd loaded
 * at first use (util/lazy_lib.h): without --listen, neither it nor GnuTLS
 * and the rest it pulls in are mapped. Call them as
 * libmhd.MHD_start_daemon() once mhd_lib_load() returned 0.
 */

#include <stddef.h>

#include <microhttpd.h>

#include "util/lazy_lib.h"

struct mhd_lib {
	LAZY_FN(MHD_start_daemon);
	LAZY_FN(MHD_stop_daemon);
	LAZY_FN(MHD_create_response_from_buffer);
	LAZY_FN(MHD_create_response_from_buffer_with_free_callback_cls);
	LAZY_FN(MHD_add_response_header);
	LAZY_FN(MHD_queue_response);
	LAZY_FN(MHD_destroy_response);
	LAZY_FN(MHD_lookup_connection_value);
	LAZY_FN(MHD_get_connection_info);
};

extern struct mhd_lib libmhd;

/* 0, or -ELIBACC with one line in @msg (lazy_lib_load()). */
int mhd_lib_load(char *msg, size_t len);

#endif
