/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/kselftest/include/uvm_time_scale.h - $UVM_TEST_TIMEOUT_SCALE, the
 * factor by which a test's time bounds grow on a slower kernel (the debug
 * kernel under TCG; tests/run-suite sets it). A whole number from 1 to 100;
 * anything else counts as 1.
 */
#ifndef UVM_TIME_SCALE_H
#define UVM_TIME_SCALE_H

#include <stdlib.h>

static inline unsigned int uvm_test_timeout_scale(void)
{
	const char *v = getenv("UVM_TEST_TIMEOUT_SCALE");
	unsigned long k = v ? strtoul(v, NULL, 10) : 1;

	return k >= 1 && k <= 100 ? (unsigned int)k : 1;
}

#endif /* UVM_TIME_SCALE_H */
