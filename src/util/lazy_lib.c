// SPDX-License-Identifier: GPL-2.0-only
/* Open a shared library at first use and resolve its functions (lazy_lib.h). */
#include "config.h"

#include "util/lazy_lib.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static int fail(struct lazy_lib *l, const char *why)
{
	snprintf(l->msg, sizeof(l->msg),
		 "cannot load %s (install the Debian package %s): %s",
		 l->soname, l->package, why ? why : "unknown error");
	return -ELIBACC;
}

static int load(struct lazy_lib *l)
{
	void *h, *sym[64];

	if (l->nr_syms > sizeof(sym) / sizeof(sym[0]))
		return fail(l, "too many functions to resolve");
	/* RTLD_NOW: a library that lacks a function it needs fails here. */
	h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return fail(l, dlerror());
	for (size_t i = 0; i < l->nr_syms; i++) {
		dlerror();
		sym[i] = dlsym(h, l->syms[i].name);
		if (!sym[i]) {
			/*
			 * The library is there but too old (or not the one
			 * it claims to be): installing it again would not
			 * help. dlerror()'s text lasts until the next call.
			 */
			const char *why = dlerror();

			snprintf(l->msg, sizeof(l->msg),
				 "cannot load %s: it lacks %s (the Debian package %s has it): %s",
				 l->soname, l->syms[i].name, l->package,
				 why ? why : "unknown error");
			dlclose(h);
			return -ELIBACC;
		}
	}
	/* Every function found: only now does the table become usable. */
	for (size_t i = 0; i < l->nr_syms; i++)
		memcpy((char *)l->table + l->syms[i].offset, &sym[i],
		       sizeof(sym[i]));
	l->handle = h;
	return 0;
}

int lazy_lib_load(struct lazy_lib *l, char *msg, size_t len)
{
	int err;

	pthread_mutex_lock(&l->lock);
	if (!l->done) {
		l->err = load(l);
		l->done = true;
	}
	err = l->err;
	pthread_mutex_unlock(&l->lock);
	if (err && msg && len)
		snprintf(msg, len, "%s", l->msg);
	return err;
}
