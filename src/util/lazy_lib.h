/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_LAZY_LIB_H
#define EBPFTOP_UTIL_LAZY_LIB_H

/*
 * A shared library opened at its first use rather than linked: ebpftop
 * needs libpfm4, libmicrohttpd and libpcap for one feature each, and
 * linking them made every run map, relocate and keep them (and their
 * dependencies). Each user keeps a typed table of the functions it calls
 * (see profiler/pfm_lib.h) and describes it with a struct lazy_lib;
 * lazy_lib_load() opens the library by soname and fills the table once.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* One function to resolve: its name and where its pointer goes in the table. */
struct lazy_sym {
	const char *name;
	size_t offset;		/* in the table, a function pointer */
};

struct lazy_lib {
	const char *soname;	/* what dlopen() is given: "libpfm.so.4" */
	const char *package;	/* the Debian package that ships it */
	const struct lazy_sym *syms;
	size_t nr_syms;
	void *table;		/* filled when the load succeeds */

	pthread_mutex_t lock;	/* PTHREAD_MUTEX_INITIALIZER */
	bool done;		/* tried: err and msg hold the result */
	int err;
	char msg[384];
	void *handle;
};

/*
 * Declare the table's member for function @f of the library's header,
 * with its own type: struct x { LAZY_FN(pfm_initialize); ... }.
 */
#define LAZY_FN(f) __typeof__(f) *f
/* The lazy_sym for member @f of table type @type. */
#define LAZY_SYM(type, f) { #f, offsetof(type, f) }

/*
 * Open @l->soname and resolve every symbol into @l->table, the first time;
 * later calls (from any thread) return the first result. 0, or -ELIBACC
 * with one line in @msg: "cannot load SONAME (install the Debian package
 * PKG): <dlerror>". On failure the table stays unusable (NULL pointers).
 */
int lazy_lib_load(struct lazy_lib *l, char *msg, size_t len);

#endif
