/*
 * hostrole: QEMU's thread names to roles (see hostrole.h).  The names are
 * QEMU's own (qemu_thread_create's names under debug-threads=on): vCPU
 * threads "CPU %d/%s" with the accelerator, iothreads "IO " + the object's
 * id, the pool's "worker"; the main thread keeps the process's name.
 */
#include "lib/hostrole.h"

#include <string.h>

static const char *const names[HOST_ROLE_NR] = { "vcpu", "iothread", "main_loop", "worker",
						 "other" };

const char *host_role_name(enum host_role r)
{
	return (unsigned)r < HOST_ROLE_NR ? names[r] : "?";
}

enum host_role host_role_of(const char *comm)
{
	const char *p;

	if (!strncmp(comm, "CPU ", 4)) {
		for (p = comm + 4; *p >= '0' && *p <= '9'; p++)
			;
		if (p > comm + 4 && *p == '/')
			return HOST_ROLE_VCPU;
	}
	/* "IO mon_iothread" is the monitor's own (QMP out-of-band), no disk's */
	if (!strncmp(comm, "IO ", 3) && comm[3] && strcmp(comm + 3, "mon_iothread"))
		return HOST_ROLE_IOTHREAD;
	/* the main thread is named after the binary: qemu-system-x86 (cut
	 * to 15 bytes by the kernel), Proxmox's "kvm" */
	if (!strncmp(comm, "qemu-system-", 12) || !strcmp(comm, "kvm") || !strncmp(comm, "qemu-kvm", 8))
		return HOST_ROLE_MAIN;
	if (!strcmp(comm, "worker"))
		return HOST_ROLE_WORKER;
	return HOST_ROLE_OTHER;
}
