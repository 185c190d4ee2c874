#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 2 of tests/vm/run, inside the VM, chrooted into the host's root
# (read-only 9p + tmpfs overlay) with the repository mounted writable at its
# host path. Loads the module, binds the ivshmem devices to it, runs the
# command, unloads the module, checks the kernel log and ends the VM through
# isa-debug-exit with the final status:
#
#   the command's status, or 122 if it exited 0 but a harness check failed
#   (insmod/rmmod failure, a "uvm: leak" line, no "uvm: unloaded" line, device
#   nodes left after rmmod, BUG/WARNING/Oops/lockdep/... in the kernel log).
#
# Files in the job directory (/run/uvm-vm here, shared with the host):
#   job.env (in), output (command output), dmesg, checks, status (out).

JOB=/run/uvm-vm
# shellcheck source=/dev/null
. "$JOB/job.env"

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LC_ALL=C.UTF-8
export UVM_VM=1 UVM_VM_KERNEL="$KVER" UVM_VM_NODES="$NODES" UVM_VM_DEVICES="$NDEVICES"
export UVM_VM_EMULATED="$EMULATED" UVM_VM_MODULE="${MODULE:+1}"
UVM_VM_MODULE=${UVM_VM_MODULE:-0}

OUT=$JOB/output
CHECKS=$JOB/checks
: >"$CHECKS"
failed=0

say() { echo "uvm-vm: $*" >>"$OUT"; }
# mark: a line on the console. tests/vm/run reads "UVM-VM: uvm code runs"
# there: a crash before it happened before any of our code ran.
mark() { echo "UVM-VM: $*" >/dev/console 2>/dev/null; }
check_fail() {
	echo "$*" >>"$CHECKS"
	failed=1
}

exit_vm() {
	echo "$1" >"$JOB/status"
	sync
	printf "\\$(printf %03o "$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	echo o >/proc/sysrq-trigger
	sleep 10
}

# Kernel log lines that fail a run. Lockdep reports start with "WARNING:
# possible circular locking dependency", "WARNING: inconsistent lock state"
# or "INFO: ... lock ..."; the debug kernel adds KASAN, UBSAN, kmemleak
# ("unreferenced object", printed by the scan after rmmod) and DEBUG_VM
# reports; every kernel reports hung tasks and soft lockups (arm_detectors).
BAD_LOG='BUG:|WARNING:|Oops|KASAN|UBSAN:|possible circular locking|inconsistent lock state|INFO: .*lock|INFO: task .* blocked|blocked for more than|soft lockup|unreferenced object|sleeping function called from invalid context|general protection|Call Trace|kernel BUG|list_(add|del) corruption'
KMEMLEAK=/sys/kernel/debug/kmemleak

# arm_detectors: on every kernel, a hang fails the run with its stacks in
# the log rather than as a silent timeout: the hung-task detector reports a
# task blocked for 120 s, the soft-lockup detector a CPU stuck for 2 x
# watchdog_thresh (30 s under TCG, where a starved vCPU thread must not look
# like a lockup), with every CPU's backtrace; neither panics. Console log
# level 7 from here on, so that those reports (and their stacks, printed at
# KERN_INFO) reach the console even when the guest never gets to save dmesg.
arm_detectors() {
	local kv k v
	for kv in hung_task_timeout_secs=120 hung_task_panic=0 hung_task_warnings=-1 \
		  hung_task_all_cpu_backtrace=1 softlockup_panic=0 \
		  softlockup_all_cpu_backtrace=1 watchdog_thresh=30 watchdog=1; do
		k=${kv%%=*} v=${kv#*=}
		[ -w "/proc/sys/kernel/$k" ] && echo "$v" >"/proc/sys/kernel/$k" 2>/dev/null
	done
	echo 7 >/proc/sys/kernel/printk
}

# kmemleak (debug kernel): scan once before the module is loaded and forget
# what it found (early-boot leaks that are not ours), then print each new
# leak to the kernel log; check_kmemleak scans again after rmmod.
kmemleak_start() {
	[ -w "$KMEMLEAK" ] || return 0
	echo scan >"$KMEMLEAK" 2>/dev/null
	echo clear >"$KMEMLEAK" 2>/dev/null
	[ -w /sys/module/kmemleak/parameters/verbose ] &&
		echo 1 >/sys/module/kmemleak/parameters/verbose
}

check_kmemleak() {
	[ -w "$KMEMLEAK" ] || return 0
	# An object must be unreferenced for 5 s (kmemleak's minimum age)
	# before a scan reports it.
	sleep 5
	echo scan >"$KMEMLEAK" 2>/dev/null
	cat "$KMEMLEAK" >"$JOB/kmemleak" 2>/dev/null
	[ -s "$JOB/kmemleak" ] || rm -f "$JOB/kmemleak"
}

load_module() {
	local deps
	# The module's dependencies come from the kernel package's module tree
	# (bind-mounted over /lib/modules/$KVER by stage 1).
	deps=$(modinfo -F depends "$MODULE" 2>/dev/null | tr ',' ' ')
	# shellcheck disable=SC2086
	modprobe -a drm drm_buddy $deps >>"$OUT" 2>&1 ||
		check_fail "modprobe drm drm_buddy $deps failed"
	# shellcheck disable=SC2086
	if ! insmod "$MODULE" $MODPARAMS >>"$OUT" 2>&1; then
		check_fail "insmod $MODULE $MODPARAMS failed"
		return 1
	fi
	return 0
}

# bind_devices: every ivshmem-plain device (1af4:1110) to the PCI driver uvm.
bind_devices() {
	local d bdf drv
	[ -d /sys/bus/pci/drivers/uvm ] || { say "no PCI driver 'uvm': devices left unbound"; return; }
	if [ "$BIND" = new_id ]; then
		echo "1af4 1110" >/sys/bus/pci/drivers/uvm/new_id 2>>"$OUT"
	fi
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = 0x1af4 ] && [ "$(cat "$d/device")" = 0x1110 ] || continue
		bdf=${d##*/}
		drv=$(basename "$(readlink "$d/driver" 2>/dev/null)" 2>/dev/null)
		[ "$drv" = uvm ] && continue
		if [ "$BIND" = override ]; then
			echo uvm >"$d/driver_override"
			echo "$bdf" >/sys/bus/pci/drivers_probe 2>>"$OUT"
		fi
		drv=$(basename "$(readlink "$d/driver" 2>/dev/null)" 2>/dev/null)
		[ "$drv" = uvm ] || say "$bdf (ivshmem) is not bound to uvm"
	done
}

unload_module() {
	for _ in 1 2 3 4 5; do
		rmmod uvm 2>>"$CHECKS.rmmod" && return 0
		sleep 1
	done
	check_fail "rmmod uvm failed: $(tail -n 1 "$CHECKS.rmmod")"
	return 1
}

check_after_unload() {
	local f
	dmesg >"$JOB/dmesg"
	if grep -q 'uvm: leak' "$JOB/dmesg"; then
		check_fail "the module reported leaks:"
		grep 'uvm: leak' "$JOB/dmesg" >>"$CHECKS"
	fi
	grep -q 'uvm: unloaded' "$JOB/dmesg" || check_fail "the module did not log 'uvm: unloaded'"
	[ -e /dev/uvm ] && check_fail "/dev/uvm still exists after rmmod"
	grep -q '^uvm ' /proc/modules && check_fail "uvm still in /proc/modules"
	# No other DRM driver runs in this VM: any render/card node left is uvm's.
	for f in /sys/class/drm/renderD* /sys/class/drm/card* /dev/dri/renderD*; do
		[ -e "$f" ] && check_fail "$f still exists after rmmod"
	done
}

# checked_log: the kernel log the check reads. Once fault_inject_test has
# armed failslab/fail_page_alloc (its "uvm-faultinj: armed" line), the
# allocator's reports of the failures it injects (warn_alloc: "page
# allocation failure" or "vmalloc error", each with a stack ending at
# "</TASK>") are expected output, as the test's own log scan treats them;
# every other line is checked as everywhere. The module itself passes
# __GFP_NOWARN where a user can make it fail (make check enforces it for
# kvmalloc); the rest are slab pages and the kernel's own allocations.
checked_log() {
	if grep -q 'uvm-faultinj: armed' "$JOB/dmesg"; then
		awk '/page allocation failure|vmalloc error:/ { skip = 1; next }
		     skip && /<\/TASK>/ { skip = 0; next }
		     !skip' "$JOB/dmesg"
	else
		cat "$JOB/dmesg"
	fi
}

check_kernel_log() {
	[ -s "$JOB/dmesg" ] || dmesg >"$JOB/dmesg"
	if checked_log | grep -Eq "$BAD_LOG"; then
		check_fail "kernel log has errors:"
		checked_log | grep -E "$BAD_LOG" | head -n 40 >>"$CHECKS"
	fi
}

arm_detectors
kmemleak_start
loaded=0
mark "uvm code runs"
if [ -n "$MODULE" ]; then
	load_module && loaded=1
fi
if [ -z "$MODULE" ] || [ $loaded = 1 ]; then
	[ $loaded = 1 ] && bind_devices
	# Command: argv as given on the host, run from the repository.
	cd "$REPO" || exit_vm 125
	eval "set -- $CMD"
	"$@" </dev/null >>"$OUT" 2>&1
	status=$?
	cd /
else
	status=0
fi

if [ $loaded = 1 ]; then
	unload_module && check_after_unload
fi
check_kmemleak
dmesg >"$JOB/dmesg"
check_kernel_log

echo "$status" >"$JOB/cmd-status"
if [ $status = 0 ] && [ $failed = 1 ]; then
	status=122
fi
exit_vm "$status"
