// SPDX-License-Identifier: MIT
/*
 * uvm_kernel_registry.c - kernels by name: the implementations registered
 * by uvmRegisterKernels() and by the shared objects of UVM_KERNELS
 * (include/uvm/uvm_kernel.h, docs/kernels.md "Kernels by name").
 *
 * One table, name -> implementation, under one lock; names are unique.
 * UVM_KERNELS (colon-separated paths) is read once, at the first lookup or
 * registration: each file is dlopen()ed and its uvm_kernel_impls array
 * registered as a whole, or, on any failure (the file does not load, has no
 * such symbol, an entry is malformed or a name is taken), one line on
 * stderr names the file and the reason and nothing of it is registered;
 * the other files go on. Loaded files stay loaded. Besides the missing
 * kernel's line (cuda_launch.c) these are the only lines libuvm prints.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "uvm_kernel_int.h"

#define REG_MAX_FILE_ENTRIES	65536	/* a file's array without its end */

struct reg_entry {
	const char *name;		/* the implementation's own string */
	uvm_kernel_impl_fn launch;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct reg_entry *reg_v;		/* under reg_lock */
static size_t reg_n, reg_cap;
static char **reg_warned;		/* names already said missing */
static size_t reg_warned_n;
static pthread_once_t reg_once = PTHREAD_ONCE_INIT;

/* Caller holds reg_lock. */
static const struct reg_entry *reg_find_locked(const char *name)
{
	size_t i;

	for (i = 0; i < reg_n; i++)
		if (!strcmp(reg_v[i].name, name))
			return &reg_v[i];
	return NULL;
}

/* Entries of @impls up to its end; -EINVAL (said in @why) if malformed. */
static ssize_t impls_count(const struct uvm_kernel_impl *impls, const char **why)
{
	size_t n;

	for (n = 0; n < REG_MAX_FILE_ENTRIES && impls[n].name; n++) {
		if (!impls[n].name[0] || !impls[n].launch) {
			*why = "an entry with an empty name or no function";
			return -EINVAL;
		}
	}
	if (n == REG_MAX_FILE_ENTRIES) {
		*why = "no end entry (NULL name)";
		return -EINVAL;
	}
	return (ssize_t)n;
}

/*
 * Register the @n entries of @impls, all or none: -EEXIST (*@dup the name
 * taken, here or twice in @impls), -ENOMEM. Caller holds reg_lock.
 */
static int reg_add_locked(const struct uvm_kernel_impl *impls, size_t n, const char **dup)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(impls[i].name, impls[j].name))
				break;
		if (j < i || reg_find_locked(impls[i].name)) {
			*dup = impls[i].name;
			return -EEXIST;
		}
	}
	if (reg_n + n > reg_cap) {
		size_t cap = (reg_n + n) * 2;
		struct reg_entry *v = realloc(reg_v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		reg_v = v;
		reg_cap = cap;
	}
	for (i = 0; i < n; i++)
		reg_v[reg_n++] = (struct reg_entry){ impls[i].name, impls[i].launch };
	return 0;
}

static void load_say(const char *path, const char *why, const char *name)
{
	fprintf(stderr, "libuvm: UVM_KERNELS: %s: %s%s%s\n", path, why,
		name ? " " : "", name ? name : "");
}

/* Register the kernels of the shared object @path, or say why not. */
static void load_file(const char *path)
{
	const struct uvm_kernel_impl *impls;
	const char *why = NULL, *dup = NULL;
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	ssize_t n;
	int ret;

	if (!h) {
		why = dlerror();
		load_say(path, why ? why : "cannot be loaded", NULL);
		return;
	}
	impls = dlsym(h, UVM_KERNEL_IMPLS_SYMBOL);
	if (!impls) {
		load_say(path, "no symbol " UVM_KERNEL_IMPLS_SYMBOL, NULL);
		dlclose(h);
		return;
	}
	n = impls_count(impls, &why);
	if (n < 0) {
		load_say(path, why, NULL);
		dlclose(h);
		return;
	}
	pthread_mutex_lock(&reg_lock);
	ret = reg_add_locked(impls, (size_t)n, &dup);
	pthread_mutex_unlock(&reg_lock);
	if (ret == -EEXIST)
		load_say(path, "kernel already registered:", dup);
	else if (ret)
		load_say(path, "out of memory", NULL);
	if (ret)
		dlclose(h);
}

static void load_env(void)
{
	const char *env = getenv("UVM_KERNELS");
	char *list, *path, *save = NULL;

	if (!env || !*env)
		return;
	list = strdup(env);
	if (!list) {
		load_say(env, "out of memory", NULL);
		return;
	}
	for (path = strtok_r(list, ":", &save); path; path = strtok_r(NULL, ":", &save))
		load_file(path);
	free(list);
}

uvm_kernel_impl_fn uvm_kernel_impl_find(const char *name)
{
	const struct reg_entry *e;
	uvm_kernel_impl_fn fn = NULL;

	pthread_once(&reg_once, load_env);
	if (!name)
		return NULL;
	pthread_mutex_lock(&reg_lock);
	e = reg_find_locked(name);
	if (e)
		fn = e->launch;
	pthread_mutex_unlock(&reg_lock);
	return fn;
}

bool uvm_kernel_warn_once(const char *name)
{
	char **v, *copy;
	bool first = true;
	size_t i;

	pthread_mutex_lock(&reg_lock);
	for (i = 0; i < reg_warned_n && first; i++)
		first = strcmp(reg_warned[i], name) != 0;
	if (first) {
		v = realloc(reg_warned, (reg_warned_n + 1) * sizeof(*v));
		copy = strdup(name);
		if (v)
			reg_warned = v;
		if (v && copy)
			reg_warned[reg_warned_n++] = copy;
		else
			free(copy);
	}
	pthread_mutex_unlock(&reg_lock);
	return first;
}

uvm_public cudaError_t uvmRegisterKernels(const struct uvm_kernel_impl *impls)
{
	const char *why, *dup;
	ssize_t n;
	int ret;

	pthread_once(&reg_once, load_env);
	if (!impls)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	n = impls_count(impls, &why);
	if (n < 0)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	pthread_mutex_lock(&reg_lock);
	ret = reg_add_locked(impls, (size_t)n, &dup);
	pthread_mutex_unlock(&reg_lock);
	if (ret == -EEXIST)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	return uvm_cuda_set_error(uvm_errno_to_cuda(ret));
}
