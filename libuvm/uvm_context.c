// SPDX-License-Identifier: MIT
/*
 * uvm_context.c - native API: contexts and device queries (include/uvm/uvm.h).
 *
 * Public entry points only validate arguments and call the internal
 * functions; all of them return 0 or a negative errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "uvm_internal.h"

#define UVM_DEV_PATH "/dev/uvm"

static int uvm_context_create(struct uvm_context **out)
{
	struct uvm_context *ctx;
	int ret;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;

	ctx->fd = open(UVM_DEV_PATH, O_RDWR | O_CLOEXEC);
	if (ctx->fd < 0) {
		ret = -errno;
		goto err_free;
	}

	ret = uvm_discover(ctx);
	if (ret)
		goto err_close;
	ret = uvm_alloc_table_init(&ctx->allocs);
	if (ret)
		goto err_discover_release;
	ret = uvm_policy_from_env(ctx);
	if (ret)
		goto err_alloc_table_release;

	*out = ctx;
	return 0;

err_alloc_table_release:
	uvm_alloc_table_release(ctx);
err_discover_release:
	uvm_discover_release(ctx);
err_close:
	close(ctx->fd);
err_free:
	free(ctx);
	return ret;
}

static void uvm_context_destroy(struct uvm_context *ctx)
{
	uvm_alloc_table_release(ctx);
	uvm_discover_release(ctx);
	close(ctx->fd);
	free(ctx);
}

uvm_public int uvm_open(struct uvm_context **ctx)
{
	if (!ctx)
		return -EINVAL;
	return uvm_context_create(ctx);
}

uvm_public void uvm_close(struct uvm_context *ctx)
{
	if (ctx)
		uvm_context_destroy(ctx);
}

uvm_public int uvm_get_info(struct uvm_context *ctx, struct uvm_module_info *info)
{
	if (!ctx || !info)
		return -EINVAL;
	*info = ctx->module;
	return 0;
}

uvm_public int uvm_device_count(struct uvm_context *ctx)
{
	if (!ctx)
		return -EINVAL;
	return (int)ctx->num_devices;
}

uvm_public int uvm_device_get_info(struct uvm_context *ctx, unsigned int idx,
				   struct uvm_device_info *info)
{
	struct uvm_device_info tmp;
	int ret;

	if (!ctx || !info)
		return -EINVAL;
	if (idx >= ctx->num_devices)
		return -ENODEV;

	tmp = ctx->devices[idx].info;
	ret = uvm_query_mem_free(ctx, idx, &tmp.mem_free);
	if (ret)
		return ret;
	*info = tmp;
	return 0;
}
