// SPDX-License-Identifier: MIT
/*
 * CPU accesses to buffer mappings that may raise SIGBUS, caught.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "igt.h"
#include "igt_vseg.h"

/* The jump of this thread's vseg_catch_sigbus(), NULL outside it. */
static __thread sigjmp_buf *sigbus_jmp;
static struct sigaction sigbus_old;
static pthread_once_t sigbus_once = PTHREAD_ONCE_INIT;

static void sigbus_handler(int sig)
{
	sigjmp_buf *jmp = sigbus_jmp;

	if (jmp) {
		sigbus_jmp = NULL;
		siglongjmp(*jmp, 1);
	}
	/* Not in vseg_catch_sigbus(): as before, once the handler returns. */
	sigaction(sig, &sigbus_old, NULL);
	raise(sig);
}

static void sigbus_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sigbus_handler;
	sigemptyset(&sa.sa_mask);
	igt_assert_eq(sigaction(SIGBUS, &sa, &sigbus_old), 0);
}

bool vseg_catch_sigbus(void (*fn)(void *arg), void *arg)
{
	sigjmp_buf jmp;

	pthread_once(&sigbus_once, sigbus_install);
	if (sigsetjmp(jmp, 1))
		return true;
	sigbus_jmp = &jmp;
	fn(arg);
	sigbus_jmp = NULL;
	return false;
}
