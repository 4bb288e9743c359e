/*
 * version: what build this is.  The number comes from the VERSION file (a
 * build prerequisite: objects rebuild when it changes); the git revision is
 * read by the Makefile when building from a git checkout (`git describe
 * --always --dirty`) and is "" otherwise (a release tarball).  Kept in one
 * small object so that a new commit relinks rather than recompiles the tree.
 */
#ifndef IOTRIAL_VERSION_H
#define IOTRIAL_VERSION_H

/* "0.1.0" */
const char *version_number(void);

/* "0df22d0", "0df22d0-dirty", or "" when not built from git. */
const char *version_git(void);

#endif
