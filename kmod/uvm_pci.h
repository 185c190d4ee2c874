/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __UVM_PCI_H__
#define __UVM_PCI_H__

int uvm_pci_init(void);
void uvm_pci_exit(void);

#endif /* __UVM_PCI_H__ */
