// SPDX-License-Identifier: GPL-2.0
/* exp_main.c - uvm-exp's main() (the program is uvm_exp.c). */
#include "exp.h"

int main(int argc, char **argv)
{
	return exp_main(argc, argv);
}
