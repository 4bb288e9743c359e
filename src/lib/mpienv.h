/*
 * mpienv: what an MPI launcher (mpirun, srun, hydra) tells a process through
 * its environment: this process's rank and the number of ranks.  Read
 * before MPI is initialised, by the job file reader (${RANK}, ${NRANKS}) as
 * well as by MPI mode (mpi/mpirank.c), so it sits at the bottom of the tree.
 */
#ifndef IOTRIAL_MPIENV_H
#define IOTRIAL_MPIENV_H

/*
 * The launcher's rank and size into @rank and @nranks: 1 when a launcher's
 * variables are set and consistent, else 0 with @rank and @nranks untouched.
 * Whatever this build has (with or without MPI).
 */
int mpienv_read(unsigned *rank, unsigned *nranks);

/*
 * This process's rank and the number of ranks (0 and 1 outside a launcher
 * or in a build without MPI): ${RANK} and ${NRANKS} in job files.
 */
void mpienv_rank(unsigned *rank, unsigned *nranks);

/* 1 when this build has MPI and a launcher started this process. */
int mpienv_launched(void);

#endif
