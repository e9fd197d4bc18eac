/*
 * clawmd/exit.h - the exit statuses of the clawmd command, for the
 * library's error codes: the one place they are mapped.
 *
 * The codes are the library's own (clawmd/base.h); the statuses are the
 * command's documented contract (every --help, doc/man/clawmd.1).  They
 * are public so that a binding gives the status the command gives for the
 * same cause without knowing the command: the Node binding's
 * ClawmdError.exitStatus (bindings/node/index.d.ts) is this.
 */
#ifndef CLAWMD_EXIT_H
#define CLAWMD_EXIT_H

#include "clawmd/base.h"

/* 0 for success (and any code >= 0); 2 usage, 3 invalid input, 5 lock
 * timeout; 4 a filesystem error or safety refusal, and any other failure.
 * (1, drift or findings, and a partial migrate are the command's own
 * answers, never an error code's.) */
static inline int clawmd_exit_status(int code)
{
	switch (code) {
	case CLAWMD_EUSAGE: return 2;
	case CLAWMD_EINPUT: return 3;
	case CLAWMD_ELOCK: return 5;
	default: return code >= 0 ? 0 : 4;
	}
}

#endif
