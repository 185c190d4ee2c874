// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm
/*
 * libuvm_discovery.c - the native API's device discovery against the loaded
 * module (run in the VM): /dev/uvm's list is authoritative, each device's
 * render node is found and verified. Fails without the module.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../include/uvm/uvm.h"
#include "kselftest_harness.h"

FIXTURE(ctx) {
	struct uvm_context *ctx;
	int count;
};

FIXTURE_SETUP(ctx)
{
	ASSERT_EQ(0, uvm_open(&self->ctx));
	self->count = uvm_device_count(self->ctx);
	ASSERT_GT(self->count, 0);
}

FIXTURE_TEARDOWN(ctx)
{
	uvm_close(self->ctx);
}

TEST_F(ctx, module_info)
{
	struct uvm_module_info mi;

	ASSERT_EQ(0, uvm_get_info(self->ctx, &mi));
	EXPECT_EQ(1, mi.abi_version);
	EXPECT_EQ((unsigned int)self->count, mi.num_devices);
	EXPECT_NE(0, mi.page_size);
	EXPECT_NE(0, mi.block_size);
	EXPECT_EQ(-EINVAL, uvm_get_info(self->ctx, NULL));
}

TEST_F(ctx, devices_in_id_order_with_render_nodes)
{
	struct uvm_device_info di;
	int i;

	for (i = 0; i < self->count; i++) {
		ASSERT_EQ(0, uvm_device_get_info(self->ctx, i, &di));
		EXPECT_EQ((unsigned int)i, di.id);
		EXPECT_TRUE(di.backend == UVM_DEVICE_BACKEND_PCI_BAR ||
			    di.backend == UVM_DEVICE_BACKEND_EMULATED);
		EXPECT_NE(0, di.mem_total);
		EXPECT_LE(di.mem_free, di.mem_total);
		EXPECT_TRUE(di.flags & UVM_DEVICE_HAS_RENDER_NODE);
		EXPECT_GE(di.render_minor, 128);
		EXPECT_NE(0, di.name[0]);
		if (di.backend == UVM_DEVICE_BACKEND_PCI_BAR) {
			EXPECT_TRUE(di.flags & UVM_DEVICE_HAS_PCI_INFO);
			EXPECT_NE(0, di.pci_vendor);
		} else {
			EXPECT_EQ(0xffff, di.pci_domain);
			EXPECT_FALSE(di.flags & UVM_DEVICE_HAS_PCI_INFO);
		}
	}
}

TEST_F(ctx, bad_arguments)
{
	struct uvm_device_info di;

	EXPECT_EQ(-ENODEV, uvm_device_get_info(self->ctx, self->count, &di));
	EXPECT_EQ(-EINVAL, uvm_device_get_info(self->ctx, 0, NULL));
	EXPECT_EQ(-EINVAL, uvm_device_get_info(NULL, 0, &di));
	EXPECT_EQ(-EINVAL, uvm_device_count(NULL));
}

TEST(two_contexts_see_the_same_devices)
{
	struct uvm_context *a, *b;

	ASSERT_EQ(0, uvm_open(&a));
	ASSERT_EQ(0, uvm_open(&b));
	EXPECT_EQ(uvm_device_count(a), uvm_device_count(b));
	uvm_close(b);
	uvm_close(a);
}

TEST_HARNESS_MAIN
