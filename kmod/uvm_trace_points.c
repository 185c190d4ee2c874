// SPDX-License-Identifier: GPL-2.0
#define CREATE_TRACE_POINTS
#include "uvm_trace.h"
