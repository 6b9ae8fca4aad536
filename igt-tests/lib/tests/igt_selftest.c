// SPDX-License-Identifier: MIT
/*
 * Self-test of the IGT library: subtests with known outcomes, checked by
 * run-selftests.sh (exit codes and the lines igt_runner parses).
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <pthread.h>
#include <signal.h>

#include "igt.h"

IGT_TEST_DESCRIPTION("Self-test of vseg's IGT library.");

static int fixture_value;

static void helper_assert(int a, int b)
{
	igt_assert_eq(a, b);
}

static void *thread_assert(void *arg)
{
	igt_assert_f(arg == NULL, "failed in a thread\n");
	return NULL;
}

igt_main
{
	igt_fixture {
		fixture_value = 42;
	}

	igt_describe("A subtest that passes.");
	igt_subtest("pass")
		igt_assert_eq(fixture_value, 42);

	igt_subtest("skip")
		igt_require_f(fixture_value == 0, "value is %d\n", fixture_value);

	igt_subtest("fail-assert")
		helper_assert(1, 2);

	igt_subtest("fail-assert-u64")
		igt_assert_eq_u64(0x100000000ull, 0x200000000ull);

	igt_subtest("fail-errno") {
		errno = EINVAL;
		igt_assert_f(false, "extra %s\n", "info");
	}

	igt_subtest_f("formatted-%d", 7)
		igt_info("formatted subtest runs\n");

	igt_subtest_with_dynamic("dyn-mixed") {
		igt_dynamic("one")
			igt_assert(true);
		igt_dynamic_f("two-%s", "fails")
			igt_assert_lt(5, 3);
		igt_dynamic("three")
			igt_skip("not this one\n");
	}

	igt_subtest_with_dynamic("dyn-pass") {
		for (int i = 0; i < 3; i++)
			igt_dynamic_f("part-%d", i)
				igt_assert_lte(i, 2);
	}

	igt_subtest_with_dynamic("dyn-skip") {
		igt_dynamic("a")
			igt_require(false);
		igt_dynamic("b")
			igt_skip_on(true);
	}

	igt_subtest_with_dynamic("dyn-none")
		igt_require(false);

	/* Aborts (SIGABRT) with SELFTEST_CONTAINER_FAIL: not in an igt_dynamic. */
	igt_subtest_with_dynamic("dyn-container") {
		igt_dynamic("ok")
			igt_assert(true);
		igt_assert(!getenv("SELFTEST_CONTAINER_FAIL"));
	}

	igt_subtest_group {
		igt_fixture
			igt_require_f(false, "group fixture skips\n");

		igt_subtest("group-skipped")
			igt_assert(false);
	}

	igt_subtest("after-group")
		igt_assert_neq(fixture_value, 0);

	igt_subtest_group {
		/* Fails only with SELFTEST_FIXTURE_FAIL set in the environment. */
		igt_fixture
			igt_assert_eq_u32(getenv("SELFTEST_FIXTURE_FAIL") ? 1u : 2u,
					  2u);

		igt_subtest("group-failed")
			igt_info("group fixture passed\n");
	}

	igt_subtest("fork") {
		igt_fork(child, 3)
			igt_assert(child < 3);
		igt_waitchildren();
	}

	igt_subtest("fork-fail") {
		igt_fork(child, 2)
			igt_assert_eq(child, 0);
		igt_waitchildren();
	}

	igt_subtest("fd")
		igt_assert_fd(-1);

	igt_subtest("thread-fail") {
		static int not_null;
		pthread_t thread;

		igt_assert_eq(pthread_create(&thread, NULL, thread_assert,
					     &not_null), 0);
		igt_assert_eq(pthread_join(thread, NULL), 0);
	}

	/* The test goes on after a crash in a subtest. */
	igt_subtest("crash")
		raise(SIGSEGV);

	/* Aborts in igt_exit() with SELFTEST_CHILD_LEFT: a child not waited. */
	igt_subtest("child-left") {
		if (getenv("SELFTEST_CHILD_LEFT") && fork() == 0) {
			sleep(1);
			_exit(0);
		}
	}

	igt_fixture {
		igt_info("final fixture runs\n");
	}
}
