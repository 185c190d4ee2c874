/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/kselftest/include/kselftest_harness.h - the kernel's kselftest
 * harness (cache/selftests/, from linux-source-6.1), with its per-test time
 * limits multiplied by $UVM_TEST_TIMEOUT_SCALE (a whole number, default 1).
 *
 * The harness arms alarm(t->timeout) around each test. A kernel that runs
 * several times slower (the debug kernel: KASAN, lockdep, kmemleak under
 * TCG) needs longer limits for the same work; tests/run-suite sets the
 * scale it uses for the VM's own limits (UVM_DEBUG_TIMEOUT_SCALE). A test's
 * own alarm() calls scale alike: they bound the same kind of work.
 */
#ifndef UVM_KSELFTEST_HARNESS_WRAPPER_H
#define UVM_KSELFTEST_HARNESS_WRAPPER_H

#include <unistd.h>
#include "uvm_time_scale.h"

static inline unsigned int uvm_test_scaled_alarm(unsigned int seconds)
{
	return (alarm)(seconds * uvm_test_timeout_scale());
}

#define alarm(seconds) uvm_test_scaled_alarm(seconds)
#include_next <kselftest_harness.h>

#endif /* UVM_KSELFTEST_HARNESS_WRAPPER_H */
