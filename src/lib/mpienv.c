/*
 * mpienv: a launcher's rank and size from the environment (see mpienv.h).
 */
#include "lib/mpienv.h"

#include <stdint.h>	/* UINT32_MAX */
#include <stdlib.h>	/* getenv, strtoul */

int mpienv_read(unsigned *rank, unsigned *nranks)
{
	/* OpenMPI's mpirun, then PMI (MPICH's hydra) */
	static const char *const vars[][2] = {
		{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE" },
		{ "PMI_RANK", "PMI_SIZE" },
	};
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *r = getenv(vars[i][0]), *n = getenv(vars[i][1]);
		char *end1, *end2;
		unsigned long rv, nv;

		if (!r || !n)
			continue;
		rv = strtoul(r, &end1, 10);
		nv = strtoul(n, &end2, 10);
		if (*end1 || *end2 || !*r || !*n || nv == 0 || rv >= nv || nv > UINT32_MAX)
			continue;
		*rank = (unsigned)rv;
		*nranks = (unsigned)nv;
		return 1;
	}
	return 0;
}

#ifdef IOTRIAL_MPI
void mpienv_rank(unsigned *rank, unsigned *nranks)
{
	*rank = 0;
	*nranks = 1;
	mpienv_read(rank, nranks);
}

int mpienv_launched(void)
{
	unsigned r, n;

	return mpienv_read(&r, &n);
}
#else	/* without MPI a launcher's variables mean nothing to this process */
void mpienv_rank(unsigned *rank, unsigned *nranks)
{
	*rank = 0;
	*nranks = 1;
}

int mpienv_launched(void)
{
	return 0;
}
#endif
