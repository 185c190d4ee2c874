/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __UVM_TEST_H__
#define __UVM_TEST_H__

#include <linux/compiler.h>
#include <linux/delay.h>

struct uvm_va_space;

extern unsigned int uvm_test_move_delay_us;

/*
 * Tests only: a move to a device sleeps test_move_delay_us between
 * starting its copy and ending it (block locked), so regression tests of
 * races with that window (kill-stress finding F5) hit it every time.
 */
static inline void uvm_test_move_delay(void)
{
	unsigned int us = READ_ONCE(uvm_test_move_delay_us);

	if (unlikely(us))
		fsleep(us);
}

/* Takes va_space->lock. */
int uvm_test_devmem_ioctl(struct uvm_va_space *va_space, void *data);
/* Frees every test allocation; the VA space is unreachable. */
void uvm_test_va_space_fini(struct uvm_va_space *va_space);

#endif /* __UVM_TEST_H__ */
