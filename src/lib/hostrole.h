/*
 * hostrole: what a QEMU thread does for its guest, from the name QEMU gives
 * it under `-name NAME,debug-threads=on` (Proxmox sets it): the one list of
 * roles that the host's view (env/hostview.c), the result reader and
 * compare's metrics (host.cpu_per_io_ns.<role>) share (docs/vm.md).
 */
#ifndef IOTRIAL_HOSTROLE_H
#define IOTRIAL_HOSTROLE_H

enum host_role {
	HOST_ROLE_VCPU,		/* "CPU 0/TCG", "CPU 3/KVM": runs the guest, exits to emulate */
	HOST_ROLE_IOTHREAD,	/* "IO iothread-virtio0": a device's queues off the main loop */
	HOST_ROLE_MAIN,		/* "qemu-system-x86", "kvm" (Proxmox): the main loop */
	HOST_ROLE_WORKER,	/* "worker": the thread pool (aio=threads, some ops) */
	HOST_ROLE_OTHER,	/* call_rcu, vnc, threads that ended during the window... */
	HOST_ROLE_NR
};

/* "vcpu", "iothread", "main_loop", "worker", "other"; "?" out of range. */
const char *host_role_name(enum host_role r);

/* The role of a thread named @comm (its /proc/PID/task/TID/comm, no newline). */
enum host_role host_role_of(const char *comm);

#endif
