/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __UVM_EMU_H__
#define __UVM_EMU_H__

int uvm_emu_init(unsigned int count, unsigned int mem_mb);
void uvm_emu_exit(void);

#endif /* __UVM_EMU_H__ */
