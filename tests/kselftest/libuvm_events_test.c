// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm
/*
 * libuvm's event stream API: uvm_events_open() on a context, records read
 * with uvm_events_read() and decoded by uvm_event_format() into one line
 * each; bad arguments refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../include/uvm/uvm.h"
#include "kselftest_harness.h"

TEST(records_are_read_and_decoded)
{
	static unsigned char recs[256][UVM_EVENT_RECORD_SIZE];
	struct uvm_device_access_op op;
	struct uvm_context *ctx;
	char line[512], *p;
	int fd, n, i, migrate = 0, batch = 0;
	uint64_t v = 5;

	ASSERT_EQ(0, uvm_open(&ctx));
	fd = uvm_events_open(ctx, 0, 256, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uvm_managed_alloc(ctx, 1 << 20, 0, (void **)&p));
	memset(p, 1, 1 << 20);
	op = (struct uvm_device_access_op){
		.addr = (uintptr_t)p, .length = 8, .buf = (uintptr_t)&v,
		.type = UVM_DEVICE_ACCESS_WRITE,
	};
	ASSERT_EQ(0, uvm_device_access(ctx, 0, &op, 1, NULL));
	fcntl(fd, F_SETFL, O_NONBLOCK);
	n = uvm_events_read(fd, recs, 256);
	ASSERT_LT(0, n);
	for (i = 0; i < n; i++) {
		int len = uvm_event_format(recs[i], line, sizeof(line));

		ASSERT_LT(0, len);
		ASSERT_GT((int)sizeof(line), len);
		EXPECT_EQ(len, uvm_event_format(recs[i], NULL, 0));
		migrate += !strncmp(line, "migrate ", 8) &&
			   strstr(line, "dst=device:") &&
			   strstr(line, "cause=device_fault");
		batch += !strncmp(line, "fault_batch ", 12) &&
			 strstr(line, " faults=1 ");
	}
	EXPECT_LE(1, migrate);
	EXPECT_EQ(1, batch);
	EXPECT_EQ(-EAGAIN, uvm_events_read(fd, recs, 256));
	EXPECT_STREQ("migrate", uvm_event_type_name(UVM_EVENT_TYPE_MIGRATE));
	EXPECT_EQ(NULL, uvm_event_type_name(UVM_EVENT_TYPE_COUNT));
	memset(recs[0], 0, UVM_EVENT_RECORD_SIZE);
	EXPECT_EQ(-EINVAL, uvm_event_format(recs[0], line, sizeof(line)));
	EXPECT_EQ(-EINVAL, uvm_events_open(ctx, 0, 100, 0));
	EXPECT_EQ(-EINVAL, uvm_events_open(NULL, 0, 256, 0));
	EXPECT_EQ(-EINVAL, uvm_events_read(fd, recs, 0));
	close(fd);
	uvm_managed_free(ctx, p);
	uvm_close(ctx);
}

TEST_HARNESS_MAIN
