/*
 * runner: start --runner's command for one run and wait for it (runner.h).
 */
#include "runner.h"
#include "lib/err.h"	/* EXIT_INTERNAL */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int runner_words(const char *runner, char ***argv, size_t *n, size_t cap)
{
	size_t len, nw = 0, i;
	char **v, *copy, *w, *save = NULL;

	if (!runner || !strpbrk(runner, " \t")) {
		(*argv)[(*n)++] = (char *)(runner ? runner : "iotrial");
		return 0;
	}
	len = strlen(runner);
	for (i = 0; i < len; i++)
		nw += runner[i] != ' ' && runner[i] != '\t';	/* a bound on the words */
	v = realloc(*argv, (cap + nw) * sizeof(*v) + len + 1);
	if (!v)
		return -ENOMEM;
	memset(v + cap, 0, nw * sizeof(*v));
	copy = memcpy((char *)(v + cap + nw), runner, len + 1);
	*argv = v;
	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		v[(*n)++] = w;
	return 0;
}

int runner_run(const char *runner, char *const *args, size_t nargs, const struct runner_wait *w)
{
	size_t n = 0, i, cap = nargs + 2;
	char **argv = calloc(cap, sizeof(*argv));
	int status = 0, fd, forwarded = 0, sig;
	pid_t pid;

	if (!argv)
		return EXIT_INTERNAL;
	if (runner_words(runner, &argv, &n, cap)) {
		free(argv);
		return EXIT_INTERNAL;
	}
	for (i = 0; i < nargs; i++)
		argv[n++] = args[i];
	pid = fork();
	if (pid == 0) {
		if (w->child_mask)
			sigprocmask(SIG_SETMASK, w->child_mask, NULL);	/* the run gets Ctrl-C itself */
		fd = w->log ? open(w->log, O_WRONLY | O_CREAT | O_TRUNC, 0666) : -1;
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		/* stdout apart: a runner may print its JSON result there (trial.h) */
		fd = w->out && w->out[0] ? open(w->out, O_WRONLY | O_CREAT | O_TRUNC, 0666) : -1;
		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
		if (runner)
			execvp(argv[0], argv);
		else
			execv("/proc/self/exe", argv);
		fprintf(stderr, "iotrial: error: cannot run %s: %s\n",
			runner ? runner : "/proc/self/exe", strerror(errno));
		_exit(127);
	}
	while (pid > 0) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			break;
		if (w->tick)
			w->tick(w->arg);
		if (!forwarded && (sig = w->signalled(w->arg, 0.05))) {
			kill(pid, sig);
			forwarded = 1;
		} else if (forwarded) {
			nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
		}
	}
	free(argv);
	if (pid < 0)
		return EXIT_INTERNAL;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
