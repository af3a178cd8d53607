// SPDX-License-Identifier: GPL-2.0-only
/* libmicrohttpd, opened when --listen starts its server (mhd_lib.h). */
#include "config.h"

#include "export/mhd_lib.h"

struct mhd_lib libmhd;

static const struct lazy_sym mhd_syms[] = {
	LAZY_SYM(struct mhd_lib, MHD_start_daemon),
	LAZY_SYM(struct mhd_lib, MHD_stop_daemon),
	LAZY_SYM(struct mhd_lib, MHD_create_response_from_buffer),
	LAZY_SYM(struct mhd_lib, MHD_create_response_from_buffer_with_free_callback_cls),
	LAZY_SYM(struct mhd_lib, MHD_add_response_header),
	LAZY_SYM(struct mhd_lib, MHD_queue_response),
	LAZY_SYM(struct mhd_lib, MHD_destroy_response),
	LAZY_SYM(struct mhd_lib, MHD_lookup_connection_value),
	LAZY_SYM(struct mhd_lib, MHD_get_connection_info),
};

static struct lazy_lib mhd_lazy = {
	.soname = EBPFTOP_LIBMHD_SONAME,
	.package = "libmicrohttpd12",
	.syms = mhd_syms,
	.nr_syms = sizeof(mhd_syms) / sizeof(mhd_syms[0]),
	.table = &libmhd,
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

int mhd_lib_load(char *msg, size_t len)
{
	return lazy_lib_load(&mhd_lazy, msg, len);
}
