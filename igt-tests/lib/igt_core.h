/* SPDX-License-Identifier: MIT */
/*
 * vseg's small implementation of the IGT test framework core.
 *
 * The macro and function names and signatures follow upstream IGT
 * (igt-gpu-tools lib/igt_core.h) so that a test written against this file
 * also builds, unchanged, inside the upstream tree. Only the subset vseg's
 * tests need is provided; the implementation is our own.
 *
 * Control flow: every subtest, dynamic subtest and fixture block is a
 * one-shot for loop whose condition contains a sigsetjmp(). Leaving a block
 * (success, skip, failure) siglongjmp()s back into that condition, which
 * then evaluates to false and ends the loop. Locals that a block modifies
 * and that are used after it must therefore be volatile or static.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_CORE_H
#define IGT_CORE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#ifndef IGT_LOG_DOMAIN
#define IGT_LOG_DOMAIN (NULL)
#endif

#define __noreturn __attribute__((noreturn))
#define __maybe_unused __attribute__((unused))

/* Exit statuses understood by igt_runner. */
#define IGT_EXIT_SUCCESS	0
#define IGT_EXIT_SKIP		77
#define IGT_EXIT_INVALID	79
#define IGT_EXIT_FAILURE	98
#define IGT_EXIT_ABORT		112

extern const char *__igt_test_description __attribute__((weak));

/* IGT_TEST_DESCRIPTION: one-line description of the whole binary. */
#define IGT_TEST_DESCRIPTION(str) const char *__igt_test_description = str

#define __igt_tokencat2(x, y) x ## y
#define igt_tokencat(x, y) __igt_tokencat2(x, y)
#define igt_unique(prefix) \
	igt_tokencat(igt_tokencat(__igt_unique__, prefix), __LINE__)

/* Jump targets of the currently running subtest / dynamic subtest. */
extern sigjmp_buf igt_subtest_jmpbuf;
extern sigjmp_buf igt_dynamic_jmpbuf;

struct option;
typedef int (*igt_opt_handler_t)(int opt, int opt_index, void *data);
#define IGT_OPT_HANDLER_SUCCESS 0
#define IGT_OPT_HANDLER_ERROR -2

int igt_subtest_init_parse_opts(int *argc, char **argv,
				const char *extra_short_opts,
				const struct option *extra_long_opts,
				const char *help_str,
				igt_opt_handler_t extra_opt_handler,
				void *handler_data);
void igt_simple_init_parse_opts(int *argc, char **argv,
				const char *extra_short_opts,
				const struct option *extra_long_opts,
				const char *help_str,
				igt_opt_handler_t extra_opt_handler,
				void *handler_data);

#define igt_subtest_init(argc, argv) \
	igt_subtest_init_parse_opts(&argc, argv, NULL, NULL, NULL, NULL, NULL);
#define igt_simple_init(argc, argv) \
	igt_simple_init_parse_opts(&argc, argv, NULL, NULL, NULL, NULL, NULL);

bool __igt_fixture(void);
void __igt_fixture_complete(void);
__noreturn void __igt_fixture_end(void);
bool __igt_run_subtest(const char *subtest_name, const char *file,
		       const int line);
bool __igt_enter_dynamic_container(void);
bool __igt_run_dynamic_subtest(const char *dynamic_subtest_name);
void __igt_subtest_group_save(int *save, int *desc);
void __igt_subtest_group_restore(int save, int desc);

/*
 * igt_fixture: setup/teardown code shared by the subtests that follow.
 * Not run while listing subtests, nor after an earlier fixture of the same
 * group skipped or failed. A skip in it skips the following subtests of the
 * group; a failure fails them.
 */
#define igt_fixture \
	for (volatile int igt_unique(__tmpint) = 0; \
	     igt_unique(__tmpint) < 1 && __igt_fixture() && \
	     (sigsetjmp(igt_subtest_jmpbuf, 1) == 0); \
	     igt_unique(__tmpint)++, __igt_fixture_complete())

/* igt_subtest: a named subtest block. */
#define igt_subtest(name) \
	for (; __igt_run_subtest((name), __FILE__, __LINE__) && \
	       (sigsetjmp(igt_subtest_jmpbuf, 1) == 0); \
	     igt_success())

#define __igt_subtest_f(tmp, format...) \
	for (char tmp[256]; \
	     snprintf(tmp, sizeof(tmp), format), \
	     __igt_run_subtest(tmp, __FILE__, __LINE__) && \
	     (sigsetjmp(igt_subtest_jmpbuf, 1) == 0); \
	     igt_success())

/* igt_subtest_f: like igt_subtest() with a printf-style name. */
#define igt_subtest_f(f...) __igt_subtest_f(igt_unique(__tmpchar), f)

/*
 * igt_subtest_with_dynamic: a subtest whose results come from the
 * igt_dynamic blocks run inside it. FAIL if any dynamic part failed,
 * SUCCESS if at least one succeeded and none failed, SKIP otherwise. As
 * upstream, an assertion that fails in the block outside every igt_dynamic
 * (before any dynamic part failed) aborts the program: check such things
 * in a fixture, or in an igt_dynamic of their own.
 */
#define igt_subtest_with_dynamic(name) \
	for (; __igt_run_subtest((name), __FILE__, __LINE__) && \
	       __igt_enter_dynamic_container() && \
	       (sigsetjmp(igt_subtest_jmpbuf, 1) == 0); \
	     igt_success())

#define __igt_subtest_with_dynamic_f(tmp, format...) \
	for (char tmp[256]; \
	     snprintf(tmp, sizeof(tmp), format), \
	     __igt_run_subtest(tmp, __FILE__, __LINE__) && \
	     __igt_enter_dynamic_container() && \
	     (sigsetjmp(igt_subtest_jmpbuf, 1) == 0); \
	     igt_success())

#define igt_subtest_with_dynamic_f(f...) \
	__igt_subtest_with_dynamic_f(igt_unique(__tmpchar), f)

/* igt_dynamic: one dynamic part of an igt_subtest_with_dynamic block. */
#define igt_dynamic(name) \
	for (; __igt_run_dynamic_subtest((name)) && \
	       (sigsetjmp(igt_dynamic_jmpbuf, 1) == 0); \
	     igt_success())

#define __igt_dynamic_f(tmp, format...) \
	for (char tmp[256]; \
	     snprintf(tmp, sizeof(tmp), format), \
	     __igt_run_dynamic_subtest(tmp) && \
	     (sigsetjmp(igt_dynamic_jmpbuf, 1) == 0); \
	     igt_success())

#define igt_dynamic_f(f...) __igt_dynamic_f(igt_unique(__tmpchar), f)

/*
 * igt_subtest_group: scope for fixtures; a skip or failure in a fixture
 * inside the group only affects the subtests of the group.
 */
#define igt_subtest_group \
	for (int igt_unique(__tmpint) = 0, igt_unique(__save) = 0, \
	     igt_unique(__desc) = 0; \
	     igt_unique(__tmpint) < 1 && \
	     (__igt_subtest_group_save(&igt_unique(__save), \
				       &igt_unique(__desc)), true); \
	     igt_unique(__tmpint)++, \
	     __igt_subtest_group_restore(igt_unique(__save), \
					 igt_unique(__desc)))

const char *igt_subtest_name(void);
const char *igt_dynamic_subtest_name(void);
const char *igt_test_name(void);
bool igt_only_list_subtests(void);

/* igt_main_args / igt_main: replace main() for a test with subtests. */
#define igt_main_args(short_opts, long_opts, help_str, opt_handler, \
		      handler_data) \
	static void igt_unique(__real_main)(void); \
	int main(int argc, char **argv) \
	{ \
		igt_subtest_init_parse_opts(&argc, argv, short_opts, \
					    long_opts, help_str, \
					    opt_handler, handler_data); \
		igt_unique(__real_main)(); \
		igt_exit(); \
	} \
	static void igt_unique(__real_main)(void)

#define igt_main igt_main_args(NULL, NULL, NULL, NULL, NULL)

/* igt_simple_main_args / igt_simple_main: a test without subtests. */
#define igt_simple_main_args(short_opts, long_opts, help_str, opt_handler, \
			     handler_data) \
	static void igt_unique(__real_main)(void); \
	int main(int argc, char **argv) \
	{ \
		igt_simple_init_parse_opts(&argc, argv, short_opts, \
					   long_opts, help_str, \
					   opt_handler, handler_data); \
		igt_unique(__real_main)(); \
		igt_exit(); \
	} \
	static void igt_unique(__real_main)(void)

#define igt_simple_main igt_simple_main_args(NULL, NULL, NULL, NULL, NULL)

#define igt_constructor \
	__attribute__((constructor)) \
	static void igt_unique(__igt_constructor_l)(void)

__noreturn __attribute__((format(printf, 1, 2)))
void igt_skip(const char *f, ...);
__noreturn __attribute__((format(printf, 5, 6)))
void __igt_skip_check(const char *file, const int line, const char *func,
		      const char *check, const char *format, ...);
#define igt_skip_check(E, F...) \
	__igt_skip_check(__FILE__, __LINE__, __func__, E, F)

void igt_success(void);
bool igt_can_fail(void);
__noreturn void igt_fail(int exitcode);
__noreturn __attribute__((format(printf, 6, 7)))
void __igt_fail_assert(const char *domain, const char *file, const int line,
		       const char *func, const char *assertion,
		       const char *format, ...);
__noreturn __attribute__((format(printf, 6, 7)))
void __igt_abort(const char *domain, const char *file, const int line,
		 const char *func, const char *expression, const char *f, ...);
__noreturn void igt_exit(void);

static inline void igt_ignore_warn(bool value)
{
	(void)value;
}

/* igt_describe: attach a description to the next subtest or group. */
__attribute__((format(printf, 1, 2)))
void igt_describe_f(const char *fmt, ...);
#define igt_describe(dsc) igt_describe_f("%s", dsc)

#define igt_assert(expr) \
	do { \
		if (!(expr)) \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #expr, NULL); \
	} while (0)

#define igt_assert_f(expr, f...) \
	do { \
		if (!(expr)) \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #expr, f); \
	} while (0)

#define igt_fail_on(expr) igt_assert(!(expr))
#define igt_fail_on_f(expr, f...) igt_assert_f(!(expr), f)

/*
 * Typed comparisons that print both values on failure. As upstream, the
 * plain variants compare as int, the _u32 ones as uint32_t, the _u64 / _s64
 * ones as 64-bit.
 */
#define igt_assert_cmpint(n1, cmp, ncmp, n2) \
	do { \
		int __n1 = (n1), __n2 = (n2); \
		if (!(__n1 cmp __n2)) \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #n1 " " #cmp " " #n2, \
					  "error: %d " #ncmp " %d\n", \
					  __n1, __n2); \
	} while (0)

#define igt_assert_cmpuint(n1, cmp, ncmp, n2) \
	do { \
		uint32_t __n1 = (n1), __n2 = (n2); \
		if (!(__n1 cmp __n2)) \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #n1 " " #cmp " " #n2, \
					  "error: %#x " #ncmp " %#x\n", \
					  __n1, __n2); \
	} while (0)

#define igt_assert_cmps64(n1, cmp, ncmp, n2) \
	do { \
		int64_t __n1 = (n1), __n2 = (n2); \
		if (!(__n1 cmp __n2)) \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #n1 " " #cmp " " #n2, \
					  "error: %lld " #ncmp " %lld\n", \
					  (long long)__n1, (long long)__n2); \
	} while (0)

#define igt_assert_cmpu64(n1, cmp, ncmp, n2) \
	do { \
		uint64_t __n1 = (n1), __n2 = (n2); \
		if (!(__n1 cmp __n2)) \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #n1 " " #cmp " " #n2, \
					  "error: %#llx " #ncmp " %#llx\n", \
					  (long long)__n1, (long long)__n2); \
	} while (0)

#define igt_assert_cmpdouble(n1, cmp, ncmp, n2) \
	do { \
		double __n1 = (n1), __n2 = (n2); \
		if (!(__n1 cmp __n2)) \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #n1 " " #cmp " " #n2, \
					  "error: %#lf " #ncmp " %#lf\n", \
					  __n1, __n2); \
	} while (0)

#define igt_assert_eq(n1, n2)		igt_assert_cmpint(n1, ==, !=, n2)
#define igt_assert_eq_u32(n1, n2)	igt_assert_cmpuint(n1, ==, !=, n2)
#define igt_assert_eq_s64(n1, n2)	igt_assert_cmps64(n1, ==, !=, n2)
#define igt_assert_eq_u64(n1, n2)	igt_assert_cmpu64(n1, ==, !=, n2)
#define igt_assert_eq_double(n1, n2)	igt_assert_cmpdouble(n1, ==, !=, n2)
#define igt_assert_neq(n1, n2)		igt_assert_cmpint(n1, !=, ==, n2)
#define igt_assert_neq_u32(n1, n2)	igt_assert_cmpuint(n1, !=, ==, n2)
#define igt_assert_neq_u64(n1, n2)	igt_assert_cmpu64(n1, !=, ==, n2)
#define igt_assert_neq_double(n1, n2)	igt_assert_cmpdouble(n1, !=, ==, n2)
#define igt_assert_lte(n1, n2)		igt_assert_cmpint(n1, <=, >, n2)
#define igt_assert_lte_u32(n1, n2)	igt_assert_cmpuint(n1, <=, >, n2)
#define igt_assert_lte_u64(n1, n2)	igt_assert_cmpu64(n1, <=, >, n2)
#define igt_assert_lte_s64(n1, n2)	igt_assert_cmps64(n1, <=, >, n2)
#define igt_assert_lt(n1, n2)		igt_assert_cmpint(n1, <, >=, n2)
#define igt_assert_lt_u32(n1, n2)	igt_assert_cmpuint(n1, <, >=, n2)
#define igt_assert_lt_u64(n1, n2)	igt_assert_cmpu64(n1, <, >=, n2)
#define igt_assert_lt_s64(n1, n2)	igt_assert_cmps64(n1, <, >=, n2)
#define igt_assert_lt_double(n1, n2)	igt_assert_cmpdouble(n1, <, >=, n2)

#define igt_assert_fd(fd) \
	igt_assert_f(fd >= 0, "file descriptor " #fd " failed\n");

#define igt_require(expr) \
	do { \
		if (!(expr)) \
			igt_skip_check(#expr, NULL); \
		else \
			igt_debug("Test requirement passed: %s\n", #expr); \
	} while (0)

#define igt_skip_on(expr) \
	do { \
		if ((expr)) \
			igt_skip_check("!(" #expr ")", NULL); \
		else \
			igt_debug("Test requirement passed: !(%s)\n", #expr); \
	} while (0)

#define igt_require_f(expr, f...) \
	do { \
		if (!(expr)) \
			igt_skip_check(#expr, f); \
		else \
			igt_debug("Test requirement passed: %s\n", #expr); \
	} while (0)

#define igt_require_fd(fd) \
	igt_require_f(fd >= 0, "file descriptor " #fd " failed\n");

#define igt_skip_on_f(expr, f...) \
	do { \
		if ((expr)) \
			igt_skip_check("!(" #expr ")", f); \
		else \
			igt_debug("Test requirement passed: !(%s)\n", #expr); \
	} while (0)

#define igt_abort_on_f(expr, f...) \
	do { \
		if ((expr)) \
			__igt_abort(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
				    __func__, #expr, f); \
	} while (0)

/*
 * igt_fork: run the block in @num_children child processes (only inside a
 * subtest, or in a test without subtests). igt_waitchildren() waits for
 * them all; the first one that fails gets the others killed and fails the
 * parent with its exit status (128 + signal if a signal killed it).
 * Children left when a subtest ends are killed; igt_exit() aborts if any
 * child process, of igt_fork() or not, is left unwaited.
 */
bool __igt_fork(void);
#define igt_fork(child, num_children) \
	for (int child = 0; child < (num_children); child++) \
		for (; __igt_fork(); exit(0))
int __igt_waitchildren(void);
void igt_waitchildren(void);
void igt_kill_children(int signal);

/*
 * Exit handlers: at most 10, run once, last installed first, at exit() and
 * on SIGINT, SIGHUP, SIGPIPE, SIGTERM, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS
 * and SIGFPE (then re-raised). An igt_fork() child starts with none. The
 * library installs one of its own at initialisation. SIGSEGV, SIGBUS and
 * SIGFPE in a subtest end it as CRASH and the test goes on.
 */
typedef void (*igt_exit_handler_t)(int sig);
void igt_install_exit_handler(igt_exit_handler_t fn);

enum igt_log_level {
	IGT_LOG_DEBUG,
	IGT_LOG_INFO,
	IGT_LOG_WARN,
	IGT_LOG_CRITICAL,
	IGT_LOG_NONE,
};

__attribute__((format(printf, 3, 4)))
void igt_log(const char *domain, enum igt_log_level level,
	     const char *format, ...);
__attribute__((format(printf, 3, 0)))
void igt_vlog(const char *domain, enum igt_log_level level,
	      const char *format, va_list args);

#define igt_debug(f...)		igt_log(IGT_LOG_DOMAIN, IGT_LOG_DEBUG, f)
#define igt_info(f...)		igt_log(IGT_LOG_DOMAIN, IGT_LOG_INFO, f)
#define igt_warn(f...)		igt_log(IGT_LOG_DOMAIN, IGT_LOG_WARN, f)
#define igt_critical(f...)	igt_log(IGT_LOG_DOMAIN, IGT_LOG_CRITICAL, f)

extern enum igt_log_level igt_log_level;

#define igt_warn_on(condition) ({ \
		typeof(condition) ret__ = (condition); \
		if (ret__) \
			igt_warn("Warning on condition %s in function %s, file %s:%i\n", \
				 #condition, __func__, __FILE__, __LINE__); \
		ret__; \
	})

#define igt_debug_on(condition) ({ \
		typeof(condition) ret__ = (condition); \
		if (ret__) \
			igt_debug("Condition %s occurred in function %s, file %s:%i\n", \
				  #condition, __func__, __FILE__, __LINE__); \
		ret__; \
	})

#define igt_warn_on_f(condition, f...) ({ \
		typeof(condition) ret__ = (condition); \
		if (ret__) { \
			igt_warn("Warning on condition %s in function %s, file %s:%i\n", \
				 #condition, __func__, __FILE__, __LINE__); \
			igt_warn(f); \
		} \
		ret__; \
	})

#define igt_debug_on_f(condition, f...) ({ \
		typeof(condition) ret__ = (condition); \
		if (ret__) { \
			igt_debug("condition %s occurred in function %s, file %s:%i\n", \
				  #condition, __func__, __FILE__, __LINE__); \
			igt_debug(f); \
		} \
		ret__; \
	})

int igt_gettime(struct timespec *ts);
double igt_time_elapsed(struct timespec *then, struct timespec *now);
uint64_t igt_nsec_elapsed(struct timespec *start);

/* igt_kmsg: write one message to /dev/kmsg (if writable). */
__attribute__((format(printf, 1, 2)))
void igt_kmsg(const char *format, ...);
#define KMSG_EMER	"<0>[IGT] "
#define KMSG_ALERT	"<1>[IGT] "
#define KMSG_CRIT	"<2>[IGT] "
#define KMSG_ERR	"<3>[IGT] "
#define KMSG_WARNING	"<4>[IGT] "
#define KMSG_NOTICE	"<5>[IGT] "
#define KMSG_INFO	"<6>[IGT] "
#define KMSG_DEBUG	"<7>[IGT] "

/*
 * igt_system: run @command with /bin/sh, its stdout logged as information
 * and its stderr as warnings ("[cmd] ..."). Returns its exit status, -1 if
 * it could not be run.
 */
int igt_system(const char *command);

/*
 * igt_emit_ignore_dmesg_regex: tell igt_runner (and tools/igt-run.sh) that
 * kernel log lines matching @ignore_dmesg_regex are expected from here to
 * the end of the current subtest or dynamic subtest, so that they do not
 * make its result dmesg-warn (a splat). Each call replaces the regex of the
 * previous one; the next subtest or dynamic subtest starts with none.
 * Call it before provoking the lines. The regex reaches the runner through
 * /dev/kmsg, which escapes backslashes and control characters: use a POSIX
 * extended regex without them (this implementation fails the test on one).
 */
void igt_emit_ignore_dmesg_regex(const char *ignore_dmesg_regex);

#define READ_ONCE(x) (*(volatile typeof(x) *)(&(x)))
#define WRITE_ONCE(x, v) do *(volatile typeof(x) *)(&(x)) = (v); while (0)

/* As upstream: unsigned long, so that products do not wrap at 32 bits. */
#define MSEC_PER_SEC (1000ul)
#define USEC_PER_MSEC (1000ul)
#define NSEC_PER_USEC (1000ul)
#define USEC_PER_SEC (1000u * MSEC_PER_SEC)
#define USEC_PER_DECISEC (100u * MSEC_PER_SEC)
#define NSEC_PER_SEC (1000u * USEC_PER_SEC)
#define NSEC_PER_MSEC (1000u * USEC_PER_MSEC)

#define for_if(expr__) if (!(expr__)) {} else

#endif /* IGT_CORE_H */
