// SPDX-License-Identifier: MIT
/*
 * vseg's small implementation of the IGT test framework core: option
 * parsing, the subtest / dynamic subtest / fixture state machine, results,
 * exit codes, logging, exit handlers, fatal signals, igt_fork and threads.
 *
 * Every function here behaves as the function of the same name in upstream
 * IGT (igt-gpu-tools 2.2, lib/igt_core.c) does when a test is run from a
 * shell or by igt_runner without its socket protocol: same output lines,
 * kernel log markers, exit codes, assertion aborts on API misuse, the same
 * handling of crashes, children and threads. What upstream has and this
 * file does not: the runner socket (IGT_RUNNER_SOCKET_FD: output goes to
 * stdout/stderr, which igt_runner also parses), hooks, --device filters,
 * .igtrc, interactive debugging and libunwind backtraces (as an upstream
 * build without libunwind, "Stack trace: not implemented" is printed).
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "drmtest.h"
#include "igt_core.h"

#ifndef IGT_VSEG_VERSION
#define IGT_VSEG_VERSION "1.30"
#endif

sigjmp_buf igt_subtest_jmpbuf;
sigjmp_buf igt_dynamic_jmpbuf;

enum igt_log_level igt_log_level = IGT_LOG_INFO;

/* --- state ------------------------------------------------------------- */

enum { CONT = 0, SKIP, FAIL };

static const char *command_str;
static bool test_with_subtests;
static bool list_subtests;
static bool show_testlist;
static bool describe_subtests;
static char *run_single_subtest;
static bool run_single_subtest_found;
static char *run_single_dynamic_subtest;
static char *log_domain_filter;
static bool show_ftrace;

static const char *in_subtest;
static const char *in_dynamic_subtest;
static bool in_fixture;
static bool in_atexit_handler;
/* -1 outside a dynamic container, else the dynamic parts run (not skipped) */
static int dynamic_tests_executed = -1;
static struct timespec subtest_time, dynamic_subtest_time;
static clockid_t igt_clock = (clockid_t)-1;

static int skip_subtests_henceforth;
static bool skipped_one, succeeded_one, failed_one, dynamic_failed_one;
static int igt_exitcode = IGT_EXIT_SUCCESS;
static bool igt_exit_called, igt_is_aborting;

static bool plain_output;
static bool stderr_needs_sentinel;

static bool test_child;
static pid_t *test_children;
static int num_test_children, test_children_size;

/* Descriptions: the pending one and those of the enclosing groups. */
#define DESCRIPTION_LEN 4096
static char current_description[DESCRIPTION_LEN];
#define MAX_GROUP_DEPTH 32
static char *group_descriptions[MAX_GROUP_DEPTH];
static int num_group_descriptions;

static pthread_mutex_t print_mutex = PTHREAD_MUTEX_INITIALIZER;

/* --- threads ----------------------------------------------------------- */

/*
 * As upstream's igt_thread.c: the thread that ran the constructors is the
 * main thread; a failure (or skip) in any other thread ends that thread and
 * fails the subtest when the main thread leaves it.
 */
static pthread_key_t main_thread_key;
static _Atomic(bool) thread_failed;

__attribute__((constructor))
static void main_thread_init(void)
{
	pthread_key_create(&main_thread_key, NULL);
	pthread_setspecific(main_thread_key, (void *)0x1);
}

static bool thread_is_main(void)
{
	return pthread_getspecific(main_thread_key) != NULL;
}

static void thread_clear_fail_state(void)
{
	assert(thread_is_main());
	thread_failed = false;
}

static void thread_fail(void)
{
	assert(!thread_is_main());
	thread_failed = true;
}

static void thread_assert_no_failures(void)
{
	assert(thread_is_main());
	if (thread_failed) {
		thread_clear_fail_state();
		igt_critical("Failure in a thread!\n");
		igt_fail(IGT_EXIT_FAILURE);
	}
}

/* --- time -------------------------------------------------------------- */

int igt_gettime(struct timespec *ts)
{
	memset(ts, 0, sizeof(*ts));
	errno = 0;

	/* One clock for the whole run, the first of these that works. */
	if (igt_clock != (clockid_t)-1) {
		if (clock_gettime(igt_clock, ts))
			goto error;
		return 0;
	}
	if (!clock_gettime(igt_clock = CLOCK_MONOTONIC_RAW, ts))
		return 0;
	if (!clock_gettime(igt_clock = CLOCK_MONOTONIC_COARSE, ts))
		return 0;
	if (!clock_gettime(igt_clock = CLOCK_MONOTONIC, ts))
		return 0;
error:
	igt_warn("Could not read monotonic time: %s\n", strerror(errno));
	return -errno;
}

#define time_valid(ts) ((ts)->tv_sec || (ts)->tv_nsec)

double igt_time_elapsed(struct timespec *then, struct timespec *now)
{
	double elapsed = -1.;

	if (time_valid(then) && time_valid(now)) {
		elapsed = now->tv_sec - then->tv_sec;
		elapsed += (now->tv_nsec - then->tv_nsec) * 1e-9;
	}
	return elapsed;
}

uint64_t igt_nsec_elapsed(struct timespec *start)
{
	struct timespec now;

	igt_gettime(&now);
	if ((start->tv_sec | start->tv_nsec) == 0) {
		*start = now;
		return 0;
	}
	return (now.tv_nsec - start->tv_nsec) +
	       (uint64_t)NSEC_PER_SEC * (now.tv_sec - start->tv_sec);
}

/* --- small helpers ----------------------------------------------------- */

/* A broken rule of the API: say which, then abort as upstream's assert(). */
__attribute__((format(printf, 2, 3)))
static void internal_assert(bool cond, const char *format, ...)
{
	va_list ap;

	if (cond)
		return;
	va_start(ap, format);
	vfprintf(stderr, format, ap);
	va_end(ap);
	fprintf(stderr, "please refer to lib/igt_core documentation\n");
	igt_info("Stack trace: not implemented\n");
	assert(0);
}

void igt_kmsg(const char *format, ...)
{
	va_list ap;
	FILE *file;

	file = fopen("/dev/kmsg", "w");
	if (!file)
		return;
	va_start(ap, format);
	vfprintf(file, format, ap);
	va_end(ap);
	fclose(file);
}

void igt_emit_ignore_dmesg_regex(const char *ignore_dmesg_regex)
{
	static const char mark[] = "add ignored dmesg regex: ";
	regex_t re;
	int err;

	/*
	 * igt_runner compiles the text it reads back from /dev/kmsg, where
	 * the kernel has escaped '\\' and control characters as \xNN, so a
	 * regex with any of them can never work there: refuse it here.
	 */
	for (const char *p = ignore_dmesg_regex; *p; p++)
		igt_assert_f(*p != '\\' && (unsigned char)*p >= ' ' && *p != 0x7f,
			     "Error in regexp: /dev/kmsg would escape '%s' (use [.] or [(] for a literal character, no backslash)\n",
			     ignore_dmesg_regex);
	err = regcomp(&re, ignore_dmesg_regex, REG_EXTENDED | REG_NOSUB);
	if (err) {
		char why[256];

		regerror(err, &re, why, sizeof(why));
		igt_debug("regexp: '%s'\n", why);
		igt_assert_f(!err, "Error in regexp\n");
	}
	regfree(&re);
	igt_kmsg(KMSG_INFO "%s%s\n", mark, ignore_dmesg_regex);
}

/*
 * Upstream's uwildmat(): a comma-separated list of shell patterns, each
 * optionally negated by a leading '!'; the last pattern that matches
 * decides. Commas inside [] or after a backslash do not separate.
 */
static bool pattern_match(const char *name, const char *patterns)
{
	bool match = false;
	const char *p = patterns;

	if (!strcmp(patterns, "*"))
		return true;
	if (!*p)
		return !*name;
	for (;;) {
		const char *split;
		bool reverse = *p == '!', escaped = false;
		char *pat;

		if (reverse)
			p++;
		for (split = p; *split; split++) {
			if (*split == '[') {
				split++;
				if (*split == ']')
					split++;
				while (*split && *split != ']')
					split++;
				if (!*split)
					break;
			}
			if (*split == ',' && !escaped)
				break;
			escaped = *split == '\\' ? !escaped : false;
		}
		pat = strndup(p, split - p);
		if (pat && match != !reverse && !fnmatch(pat, name, 0))
			match = !reverse;
		free(pat);
		if (!*split)
			break;
		p = split + 1;
	}
	return match;
}

static bool valid_name_for_subtest(const char *name)
{
	for (const char *p = name; *p; p++)
		if (*p != '_' && *p != '-' &&
		    !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

/* --- the log buffer ---------------------------------------------------- */

/* The last 256 log lines of every level, dumped when something fails. */
static struct {
	char *entries[256];
	uint8_t start, end;
} log_buffer;
static pthread_mutex_t log_buffer_mutex = PTHREAD_MUTEX_INITIALIZER;

static void log_buffer_append(char *line)
{
	pthread_mutex_lock(&log_buffer_mutex);
	free(log_buffer.entries[log_buffer.end]);
	log_buffer.entries[log_buffer.end] = line;
	log_buffer.end++;
	if (log_buffer.end == log_buffer.start)
		log_buffer.start++;
	pthread_mutex_unlock(&log_buffer_mutex);
}

static void log_buffer_reset(void)
{
	pthread_mutex_lock(&log_buffer_mutex);
	log_buffer.start = log_buffer.end = 0;
	pthread_mutex_unlock(&log_buffer_mutex);
}

static void log_buffer_dump(void)
{
	uint8_t i;

	if (in_subtest && !in_dynamic_subtest && dynamic_tests_executed >= 0) {
		/*
		 * A dynamic container fails because a dynamic part did: that
		 * part has dumped its log already.
		 */
		log_buffer_reset();
		return;
	}

	if (in_dynamic_subtest)
		fprintf(stderr, "Dynamic subtest %s failed.\n", in_dynamic_subtest);
	else if (in_subtest)
		fprintf(stderr, "Subtest %s failed.\n", in_subtest);
	else
		fprintf(stderr, "Test %s failed.\n", command_str);

	if (log_buffer.start == log_buffer.end) {
		fprintf(stderr, "No log.\n");
		return;
	}

	pthread_mutex_lock(&log_buffer_mutex);
	fprintf(stderr, "**** DEBUG ****\n");
	i = log_buffer.start;
	do {
		fprintf(stderr, "%s", log_buffer.entries[i]);
		i++;
	} while (i != log_buffer.start && i != log_buffer.end);
	log_buffer.start = log_buffer.end = 0;
	fprintf(stderr, "****  END  ****\n");
	pthread_mutex_unlock(&log_buffer_mutex);
}

/* --- logging ----------------------------------------------------------- */

static pthread_key_t line_continuation_key;

__attribute__((constructor))
static void line_continuation_init(void)
{
	pthread_key_create(&line_continuation_key, NULL);
}

void igt_vlog(const char *domain, enum igt_log_level level,
	      const char *format, va_list args)
{
	static const char *const level_str[] = {
		"DEBUG", "INFO", "WARNING", "CRITICAL", "NONE",
	};
	char *line, *formatted, *thread_id;
	size_t len;
	FILE *file;

	assert(format);

	if (thread_is_main()) {
		thread_id = strdup("");
	} else if (asprintf(&thread_id, "[thread:%d] ", gettid()) < 0) {
		thread_id = NULL;
	}
	if (!thread_id)
		return;

	if (igt_only_list_subtests() && level <= IGT_LOG_WARN) {
		free(thread_id);
		return;
	}

	if (vasprintf(&line, format, args) < 0) {
		free(thread_id);
		return;
	}

	if (pthread_getspecific(line_continuation_key)) {
		formatted = strdup(line);
	} else if (asprintf(&formatted, "(%s:%d) %s%s%s%s: %s",
			    program_invocation_short_name, getpid(), thread_id,
			    domain ? domain : "", domain ? "-" : "",
			    level_str[level], line) < 0) {
		formatted = NULL;
	}
	if (!formatted)
		goto out;

	len = strlen(line);
	pthread_setspecific(line_continuation_key,
			    (void *)(uintptr_t)(len && line[len - 1] != '\n'));

	log_buffer_append(formatted);

	if (igt_log_level > level)
		goto out;

	if (log_domain_filter) {
		if (!domain && strcmp(log_domain_filter, "application"))
			goto out;
		else if (domain && strcmp(log_domain_filter, domain))
			goto out;
	}

	pthread_mutex_lock(&print_mutex);
	if (level >= IGT_LOG_WARN) {
		file = stderr;
		fflush(stdout);
	} else {
		file = stdout;
	}
	if (level != IGT_LOG_INFO)
		fprintf(file, "%s", formatted);
	else
		fprintf(file, "%s%s", thread_id, line);
	pthread_mutex_unlock(&print_mutex);

out:
	free(line);
	free(thread_id);
}

void igt_log(const char *domain, enum igt_log_level level,
	     const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	igt_vlog(domain, level, format, ap);
	va_end(ap);
}

static void subtest_result_message(bool dynamic, const char *name,
				   const char *result, double elapsed)
{
	char timestr[32];

	snprintf(timestr, sizeof(timestr), "%.3f", elapsed);
	printf("%s%s %s: %s (%ss)%s\n", plain_output ? "" : "\x1b[1m",
	       dynamic ? "Dynamic subtest" : "Subtest", name, result, timestr,
	       plain_output ? "" : "\x1b[0m");
	fflush(stdout);
	if (stderr_needs_sentinel)
		fprintf(stderr, "%s %s: %s (%ss)\n",
			dynamic ? "Dynamic subtest" : "Subtest", name, result,
			timestr);
}

static void subtest_starting_message(bool dynamic, const char *name)
{
	igt_info("Starting %s: %s\n", dynamic ? "dynamic subtest" : "subtest",
		 name);
	fflush(stdout);
	if (stderr_needs_sentinel)
		fprintf(stderr, "Starting %s: %s\n",
			dynamic ? "dynamic subtest" : "subtest", name);
}

/* --- exit handlers and fatal signals ----------------------------------- */

#define MAX_EXIT_HANDLERS 10
static igt_exit_handler_t exit_handler_fn[MAX_EXIT_HANDLERS];
static int exit_handler_count;

static const struct {
	int number;
	const char *name;	/* NULL: silent */
} handled_signals[] = {
	{ SIGINT, NULL },
	{ SIGHUP, NULL },
	{ SIGPIPE, NULL },
	{ SIGTERM, NULL },
	{ SIGQUIT, "SIGQUIT" },	/* igt_runner's timeout */
	{ SIGABRT, "SIGABRT" },
	{ SIGSEGV, "SIGSEGV" },
	{ SIGBUS, "SIGBUS" },
	{ SIGFPE, "SIGFPE" },
};

static void restore_all_sig_handler(void)
{
	for (int i = 0; i < 32; i++)
		signal(i, SIG_DFL);
}

static void call_exit_handlers(int sig)
{
	if (!exit_handler_count)
		return;
	for (int i = exit_handler_count - 1; i >= 0; i--)
		exit_handler_fn[i](sig);
	/* each runs once */
	exit_handler_count = 0;
}

static void igt_atexit_handler(void)
{
	in_atexit_handler = true;
	restore_all_sig_handler();
	call_exit_handlers(0);
}

static void write_stderr(const char *str)
{
	igt_ignore_warn(write(STDERR_FILENO, str, strlen(str)) > 0);
}

__noreturn static void exit_subtest(const char *result);

static void fatal_sig_handler(int sig)
{
	for (size_t i = 0; i < ARRAY_SIZE(handled_signals); i++) {
		if (handled_signals[i].number != sig)
			continue;
		if (handled_signals[i].name) {
			write_stderr("Received signal ");
			write_stderr(handled_signals[i].name);
			write_stderr(".\n");
			igt_info("Stack trace: not implemented\n");
		}
		if (sig == SIGBUS || sig == SIGFPE || sig == SIGSEGV) {
			/* 128 + signal, as a shell reports it */
			if (!failed_one)
				igt_exitcode = 128 + sig;
			failed_one = true;
			if (in_subtest)
				exit_subtest("CRASH");
		}
		break;
	}

	restore_all_sig_handler();
	call_exit_handlers(sig);
	syscall(SYS_tgkill, syscall(SYS_getpid), gettid(), sig);
}

void igt_install_exit_handler(igt_exit_handler_t fn)
{
	for (int i = 0; i < exit_handler_count; i++)
		if (exit_handler_fn[i] == fn)
			return;

	igt_assert(exit_handler_count < MAX_EXIT_HANDLERS);
	exit_handler_fn[exit_handler_count++] = fn;
	if (exit_handler_count > 1)
		return;

	for (size_t i = 0; i < ARRAY_SIZE(handled_signals); i++) {
		if (signal(handled_signals[i].number, fatal_sig_handler) ==
		    SIG_ERR)
			goto err;
	}
	if (atexit(igt_atexit_handler))
		goto err;
	return;
err:
	restore_all_sig_handler();
	exit_handler_count--;
	igt_assert_f(0, "failed to install the signal handler\n");
}

static void common_exit_handler(int sig)
{
	/* Leaving without igt_exit() is a bug, unless a signal killed us. */
	assert(sig != 0 || igt_exit_called || igt_is_aborting);
}

/* --- option parsing ---------------------------------------------------- */

enum {
	OPT_LIST_SUBTESTS = 500,
	OPT_SHOW_TESTLIST,
	OPT_RUN_SUBTEST,
	OPT_RUN_DYNAMIC_SUBTEST,
	OPT_DESCRIBE_SUBTESTS,
	OPT_DESCRIPTION,
	OPT_DEBUG,
	OPT_INTERACTIVE_DEBUG,
	OPT_SKIP_CRC,
	OPT_TRACE_OOPS,
	OPT_VERSION,
	OPT_HELP = 'h',
};

static void print_line_wrapping(const char *indent, const char *text)
{
	const int line_length = 80 - (int)strlen(indent);
	char *copy = strdup(text), *curr = copy, *next_space;
	int current = 0;
	bool done = false;

	if (!copy)
		return;
	printf("%s", indent);
	while (!done) {
		next_space = strchr(curr, ' ');
		if (!next_space) {
			done = true;
			next_space = strchr(curr, '\0');
		}
		*next_space = '\0';
		if ((next_space - curr) + current > line_length && curr != copy) {
			printf("\n%s", indent);
			current = 0;
		}
		if (current == 0)
			printf("%s", curr);
		else
			printf(" %s", curr);
		current += next_space - curr;
		curr = next_space + 1;
	}
	printf("\n");
	free(copy);
}

static void print_test_description(void)
{
	if (&__igt_test_description) {
		print_line_wrapping("", __igt_test_description);
		if (describe_subtests)
			printf("\n");
	}
}

static void print_version(void)
{
	struct utsname uts;

	if (igt_only_list_subtests())
		return;
	uname(&uts);
	igt_info("IGT-Version: %s-vseg (x86_64) (%s: %s %s)\n",
		 IGT_VSEG_VERSION, uts.sysname, uts.release, uts.machine);
}

static void print_usage(const char *help_str, bool output_on_stderr)
{
	FILE *f = output_on_stderr ? stderr : stdout;

	fprintf(f, "Usage: %s [OPTIONS]\n", command_str);
	fprintf(f, "  --list-subtests\n"
		   "  --show-testlist\n"
		   "  --run-subtest <pattern>\n"
		   "  --dynamic-subtest <pattern>\n"
		   "  --debug[=log-domain]\n"
		   "  --interactive-debug[=domain]\n"
		   "  --skip-crc-compare\n"
		   "  --trace-on-oops\n"
		   "  --help-description\n"
		   "  --describe\n"
		   "  --version\n"
		   "  --help|-h\n");
	if (help_str)
		fprintf(f, "%s\n", help_str);
}

/* As upstream: the test process is the out-of-memory killer's first pick. */
static void oom_adjust_for_doom(void)
{
	const char always_kill[] = "1000";
	int fd;

	fd = open("/proc/self/oom_score_adj", O_WRONLY);
	igt_assert(fd != -1);
	igt_assert(write(fd, always_kill, sizeof(always_kill)) ==
		   sizeof(always_kill));
	close(fd);
}

static void ftrace_dump_on_oops(bool enable)
{
	int fd;

	fd = open("/proc/sys/kernel/ftrace_dump_on_oops", O_WRONLY);
	if (fd < 0)
		return;
	igt_ignore_warn(write(fd, enable ? "1\n" : "0\n", 2) == 2);
	close(fd);
}

static void igt_srandom(void)
{
	const char *param = getenv("IGT_SRANDOM");
	int seed = param ? atoi(param) : time(NULL);

	srandom(seed);
	igt_info("Using IGT_SRANDOM=%d for randomisation\n", seed);
}

static void common_init_env(void)
{
	const char *env;

	if (!isatty(STDOUT_FILENO) || getenv("IGT_PLAIN_OUTPUT"))
		plain_output = true;
	errno = 0;	/* isatty() leaves ENOTTY or EBADF */
	if (!plain_output)
		setlocale(LC_ALL, "");

	env = getenv("IGT_LOG_LEVEL");
	if (env) {
		if (!strcmp(env, "debug"))
			igt_log_level = IGT_LOG_DEBUG;
		else if (!strcmp(env, "info"))
			igt_log_level = IGT_LOG_INFO;
		else if (!strcmp(env, "warn"))
			igt_log_level = IGT_LOG_WARN;
		else if (!strcmp(env, "none"))
			igt_log_level = IGT_LOG_NONE;
	}

	stderr_needs_sentinel = getenv("IGT_SENTINEL_ON_STDERR") != NULL;

	env = getenv("IGT_FORCE_DRIVER");
	if (env)
		__set_forced_driver(env);
}

static int common_init(int *argc, char **argv, const char *extra_short_opts,
		       const struct option *extra_long_opts,
		       const char *help_str,
		       igt_opt_handler_t extra_opt_handler, void *handler_data)
{
	static const struct option long_options[] = {
		{ "list-subtests", no_argument, NULL, OPT_LIST_SUBTESTS },
		{ "show-testlist", no_argument, NULL, OPT_SHOW_TESTLIST },
		{ "describe", optional_argument, NULL, OPT_DESCRIBE_SUBTESTS },
		{ "run-subtest", required_argument, NULL, OPT_RUN_SUBTEST },
		{ "dynamic-subtest", required_argument, NULL,
		  OPT_RUN_DYNAMIC_SUBTEST },
		{ "help-description", no_argument, NULL, OPT_DESCRIPTION },
		{ "debug", optional_argument, NULL, OPT_DEBUG },
		{ "interactive-debug", optional_argument, NULL,
		  OPT_INTERACTIVE_DEBUG },
		{ "skip-crc-compare", no_argument, NULL, OPT_SKIP_CRC },
		{ "trace-on-oops", no_argument, NULL, OPT_TRACE_OOPS },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0, 0, 0, 0 },
	};
	struct option *combined_opts;
	int extra_opt_count = 0, c, option_index = 0, ret = 0;
	char *short_opts;

	common_init_env();

	command_str = argv[0];
	if (strrchr(command_str, '/'))
		command_str = strrchr(command_str, '/') + 1;

	while (extra_long_opts && extra_long_opts[extra_opt_count].name)
		extra_opt_count++;
	combined_opts = malloc((extra_opt_count + ARRAY_SIZE(long_options)) *
			       sizeof(*combined_opts));
	assert(combined_opts);
	if (extra_opt_count)
		memcpy(combined_opts, extra_long_opts,
		       extra_opt_count * sizeof(*combined_opts));
	memcpy(&combined_opts[extra_opt_count], long_options,
	       sizeof(long_options));
	ret = asprintf(&short_opts, "%s%s",
		       extra_short_opts ? extra_short_opts : "", "h");
	assert(ret >= 0);
	ret = 0;

	while ((c = getopt_long(*argc, argv, short_opts, combined_opts,
				&option_index)) != -1) {
		switch (c) {
		case OPT_INTERACTIVE_DEBUG:
		case OPT_SKIP_CRC:
			break;	/* nothing to do in this implementation */
		case OPT_DEBUG:
			igt_log_level = IGT_LOG_DEBUG;
			if (optarg && strlen(optarg) > 0)
				log_domain_filter = strdup(optarg);
			break;
		case OPT_LIST_SUBTESTS:
			if (!run_single_subtest)
				list_subtests = true;
			break;
		case OPT_SHOW_TESTLIST:
			show_testlist = true;
			break;
		case OPT_DESCRIBE_SUBTESTS:
			if (optarg)
				run_single_subtest = strdup(optarg);
			list_subtests = true;
			describe_subtests = true;
			print_test_description();
			break;
		case OPT_RUN_SUBTEST:
			assert(optarg);
			if (!igt_only_list_subtests())
				run_single_subtest = strdup(optarg);
			break;
		case OPT_RUN_DYNAMIC_SUBTEST:
			assert(optarg);
			if (!igt_only_list_subtests())
				run_single_dynamic_subtest = strdup(optarg);
			break;
		case OPT_DESCRIPTION:
			print_test_description();
			ret = -1;
			goto out;
		case OPT_TRACE_OOPS:
			show_ftrace = true;
			break;
		case OPT_VERSION:
			print_version();
			ret = -1;
			goto out;
		case OPT_HELP:
			print_usage(help_str, false);
			ret = -1;
			goto out;
		case '?':
			print_usage(help_str, true);
			ret = -2;
			goto out;
		default:
			ret = extra_opt_handler ?
			      extra_opt_handler(c, option_index, handler_data) :
			      IGT_OPT_HANDLER_ERROR;
			if (ret)
				goto out;
		}
	}

out:
	free(short_opts);
	free(combined_opts);

	/* A test without subtests has none to run or list. */
	if (!test_with_subtests) {
		if (run_single_subtest) {
			igt_warn("Unknown subtest: %s\n", run_single_subtest);
			exit(IGT_EXIT_INVALID);
		}
		if (show_testlist) {
			printf("igt@%s\n", igt_test_name());
			exit(0);
		}
		if (list_subtests)
			exit(IGT_EXIT_INVALID);
	}

	if (ret < 0)
		exit(ret == -1 ? 0 : IGT_EXIT_INVALID);

	if (!igt_only_list_subtests()) {
		igt_kmsg(KMSG_INFO "%s: executing\n", command_str);
		print_version();
		igt_srandom();
		sync();
		oom_adjust_for_doom();
		ftrace_dump_on_oops(show_ftrace);
	}

	igt_install_exit_handler(common_exit_handler);

	if (!test_with_subtests)
		igt_gettime(&subtest_time);

	for (int i = 0; optind + i < *argc; i++)
		argv[i + 1] = argv[optind + i];
	*argc = *argc - optind + 1;

	return ret;
}

int igt_subtest_init_parse_opts(int *argc, char **argv,
				const char *extra_short_opts,
				const struct option *extra_long_opts,
				const char *help_str,
				igt_opt_handler_t extra_opt_handler,
				void *handler_data)
{
	test_with_subtests = true;
	return common_init(argc, argv, extra_short_opts, extra_long_opts,
			   help_str, extra_opt_handler, handler_data);
}

void igt_simple_init_parse_opts(int *argc, char **argv,
				const char *extra_short_opts,
				const struct option *extra_long_opts,
				const char *help_str,
				igt_opt_handler_t extra_opt_handler,
				void *handler_data)
{
	common_init(argc, argv, extra_short_opts, extra_long_opts, help_str,
		    extra_opt_handler, handler_data);
}

const char *igt_test_name(void)
{
	return command_str;
}

const char *igt_subtest_name(void)
{
	return in_subtest;
}

const char *igt_dynamic_subtest_name(void)
{
	return in_dynamic_subtest;
}

bool igt_only_list_subtests(void)
{
	return list_subtests || show_testlist;
}

bool igt_can_fail(void)
{
	return !test_with_subtests || in_fixture || in_subtest;
}

/* --- descriptions ------------------------------------------------------ */

void igt_describe_f(const char *fmt, ...)
{
	va_list ap;
	int ret;

	internal_assert(!in_subtest || dynamic_tests_executed < 0,
			"documenting dynamic subsubtests is impossible, document the subtest instead.\n");
	if (!describe_subtests)
		return;
	va_start(ap, fmt);
	ret = vsnprintf(current_description, sizeof(current_description), fmt,
			ap);
	va_end(ap);
	assert(ret < (int)sizeof(current_description));
}

static void print_description(const char *name, const char *file, int line)
{
	bool has_doc = false;

	printf("SUB %s %s:%d:\n", name, file, line);
	for (int i = 0; i < num_group_descriptions; i++) {
		if (!group_descriptions[i])
			continue;
		print_line_wrapping("  ", group_descriptions[i]);
		printf("\n");
		has_doc = true;
	}
	if (current_description[0]) {
		print_line_wrapping("  ", current_description);
		printf("\n");
		has_doc = true;
	}
	if (!has_doc)
		printf("  NO DOCUMENTATION!\n\n");
}

void __igt_subtest_group_save(int *save, int *desc)
{
	internal_assert(test_with_subtests,
			"igt_subtest_group is not allowed in igt_simple_main\n");
	if (current_description[0]) {
		assert(num_group_descriptions < MAX_GROUP_DEPTH);
		group_descriptions[num_group_descriptions++] =
			strdup(current_description);
		current_description[0] = '\0';
		*desc = true;
	}
	*save = skip_subtests_henceforth;
}

void __igt_subtest_group_restore(int save, int desc)
{
	if (desc && num_group_descriptions > 0) {
		num_group_descriptions--;
		free(group_descriptions[num_group_descriptions]);
		group_descriptions[num_group_descriptions] = NULL;
	}
	skip_subtests_henceforth = save;
}

/* --- fixtures and subtests --------------------------------------------- */

bool __igt_fixture(void)
{
	internal_assert(!in_fixture, "nesting multiple igt_fixtures is invalid\n");
	internal_assert(!in_subtest, "nesting igt_fixture in igt_subtest is invalid\n");
	internal_assert(test_with_subtests, "igt_fixture in igt_simple_main is invalid\n");

	if (igt_only_list_subtests())
		return false;
	if (skip_subtests_henceforth)
		return false;
	in_fixture = true;
	return true;
}

void __igt_fixture_complete(void)
{
	assert(in_fixture);
	in_fixture = false;
}

void __igt_fixture_end(void)
{
	assert(in_fixture);
	in_fixture = false;
	siglongjmp(igt_subtest_jmpbuf, 1);
}

bool __igt_run_subtest(const char *subtest_name, const char *file,
		       const int line)
{
	internal_assert(!igt_can_fail(),
			"igt_subtest can be nested only in igt_main or igt_subtest_group\n");

	if (!valid_name_for_subtest(subtest_name)) {
		igt_critical("Invalid subtest name \"%s\".\n", subtest_name);
		igt_exit();
	}

	if (run_single_subtest) {
		if (!pattern_match(subtest_name, run_single_subtest)) {
			current_description[0] = '\0';
			return false;
		}
		run_single_subtest_found = true;
	}

	if (describe_subtests) {
		print_description(subtest_name, file, line);
		current_description[0] = '\0';
		return false;
	} else if (show_testlist) {
		printf("igt@%s@%s\n", igt_test_name(), subtest_name);
		return false;
	} else if (list_subtests) {
		printf("%s\n", subtest_name);
		return false;
	}

	if (skip_subtests_henceforth) {
		subtest_result_message(false, subtest_name,
				       skip_subtests_henceforth == SKIP ?
				       "SKIP" : "FAIL", 0.0);
		return false;
	}

	igt_kmsg(KMSG_INFO "%s: starting subtest %s\n", command_str,
		 subtest_name);
	subtest_starting_message(false, subtest_name);

	log_buffer_reset();
	thread_clear_fail_state();
	igt_gettime(&subtest_time);

	return (in_subtest = subtest_name);
}

bool __igt_enter_dynamic_container(void)
{
	dynamic_tests_executed = 0;
	dynamic_failed_one = false;
	return true;
}

bool __igt_run_dynamic_subtest(const char *dynamic_subtest_name)
{
	internal_assert(in_subtest && dynamic_tests_executed >= 0,
			"igt_dynamic is allowed only inside igt_subtest_with_dynamic\n");
	internal_assert(!in_dynamic_subtest,
			"igt_dynamic is not allowed to be nested in another igt_dynamic\n");

	if (!valid_name_for_subtest(dynamic_subtest_name)) {
		igt_critical("Invalid dynamic subtest name \"%s\".\n",
			     dynamic_subtest_name);
		igt_exit();
	}

	if (run_single_dynamic_subtest &&
	    !pattern_match(dynamic_subtest_name, run_single_dynamic_subtest))
		return false;

	igt_kmsg(KMSG_INFO "%s: starting dynamic subtest %s\n", command_str,
		 dynamic_subtest_name);
	subtest_starting_message(true, dynamic_subtest_name);

	log_buffer_reset();
	thread_clear_fail_state();
	dynamic_tests_executed++;
	igt_gettime(&dynamic_subtest_time);

	return (in_dynamic_subtest = dynamic_subtest_name);
}

/* Leave the current dynamic subtest or subtest with @result; no return. */
__noreturn static void exit_subtest(const char *result)
{
	bool dynamic = in_dynamic_subtest;
	const char **name = dynamic ? &in_dynamic_subtest : &in_subtest;
	struct timespec *then = dynamic ? &dynamic_subtest_time : &subtest_time;
	sigjmp_buf *target = dynamic ? &igt_dynamic_jmpbuf : &igt_subtest_jmpbuf;
	struct timespec now;

	if (!thread_is_main()) {
		thread_fail();
		pthread_exit(NULL);
	}

	igt_gettime(&now);
	subtest_result_message(dynamic, *name, result,
			       igt_time_elapsed(then, &now));
	igt_kmsg(KMSG_INFO "%s: finished subtest %s, %s\n", command_str, *name,
		 result);

	/* A subtest that ended early may have left its children behind. */
	for (int c = 0; c < num_test_children; c++) {
		if (test_children[c] > 0) {
			kill(test_children[c], SIGKILL);
			waitpid(test_children[c], NULL, 0);
		}
	}
	num_test_children = 0;

	if (!dynamic)
		dynamic_tests_executed = -1;
	if (dynamic)
		log_buffer_reset();

	*name = NULL;
	siglongjmp(*target, 1);
}

void igt_skip(const char *f, ...)
{
	va_list ap;

	skipped_one = true;

	internal_assert(!test_child, "skips are not allowed in forks\n");

	if (!igt_only_list_subtests()) {
		va_start(ap, f);
		vprintf(f, ap);
		va_end(ap);
	}

	if (in_subtest) {
		/* a skipped dynamic part does not count for its container */
		if (in_dynamic_subtest)
			dynamic_tests_executed--;
		exit_subtest("SKIP");
	} else if (test_with_subtests) {
		skip_subtests_henceforth = SKIP;
		internal_assert(in_fixture,
				"skipping is allowed only in fixtures, subtests or igt_simple_main\n");
		__igt_fixture_end();
	} else {
		igt_exitcode = IGT_EXIT_SKIP;
		igt_exit();
	}
}

void __igt_skip_check(const char *file, const int line, const char *func,
		      const char *check, const char *f, ...)
{
	static char *buf;
	char *err_str = NULL;
	int err = errno;
	va_list ap;

	if (!thread_is_main())
		assert(!"igt_require/skip allowed only in the main thread!");

	if (err)
		igt_assert_neq(asprintf(&err_str, "Last errno: %i, %s\n", err,
					strerror(err)), -1);

	if (f) {
		/* igt_skip() never returns: free the previous one */
		free(buf);
		va_start(ap, f);
		igt_assert_neq(vasprintf(&buf, f, ap), -1);
		va_end(ap);
		igt_skip("Test requirement not met in function %s, file %s:%i:\n"
			 "Test requirement: %s\n%s%s", func, file, line, check,
			 buf, err_str ?: "");
	} else {
		igt_skip("Test requirement not met in function %s, file %s:%i:\n"
			 "Test requirement: %s\n%s", func, file, line, check,
			 err_str ?: "");
	}
}

void igt_success(void)
{
	thread_assert_no_failures();

	if (in_subtest && !in_dynamic_subtest && dynamic_tests_executed >= 0) {
		/* Leaving a dynamic container: its result is its parts'. */
		if (dynamic_failed_one)
			igt_fail(IGT_EXIT_FAILURE);
		if (dynamic_tests_executed == 0)
			igt_skip("No dynamic tests executed.\n");
	}

	if (!in_dynamic_subtest)
		succeeded_one = true;

	if (in_subtest)
		exit_subtest("SUCCESS");
}

void igt_fail(int exitcode)
{
	assert(exitcode != IGT_EXIT_SUCCESS && exitcode != IGT_EXIT_SKIP);

	if (!thread_is_main()) {
		thread_fail();
		pthread_exit(NULL);
	}

	/* A failure inside an exit handler: leave at once. */
	if (in_atexit_handler)
		_exit(IGT_EXIT_FAILURE);

	if (in_dynamic_subtest) {
		dynamic_failed_one = true;
	} else {
		/* A dynamic container must not fail outside its parts. */
		assert(dynamic_tests_executed < 0 || dynamic_failed_one);
		if (!failed_one)
			igt_exitcode = exitcode;
		failed_one = true;
	}

	log_buffer_dump();

	if (test_child)
		exit(exitcode);

	if (in_subtest) {
		exit_subtest("FAIL");
	} else {
		internal_assert(igt_can_fail(),
				"failing test is only allowed in fixtures, subtests and igt_simple_main\n");
		if (in_fixture) {
			skip_subtests_henceforth = FAIL;
			__igt_fixture_end();
		}
		igt_exit();
	}
}

void __igt_fail_assert(const char *domain, const char *file, const int line,
		       const char *func, const char *assertion,
		       const char *f, ...)
{
	int err = errno;
	va_list ap;

	igt_log(domain, IGT_LOG_CRITICAL,
		"Test assertion failure function %s, file %s:%i:\n", func,
		file, line);
	igt_log(domain, IGT_LOG_CRITICAL, "Failed assertion: %s\n", assertion);
	if (err)
		igt_log(domain, IGT_LOG_CRITICAL, "Last errno: %i, %s\n", err,
			strerror(err));
	if (f) {
		va_start(ap, f);
		igt_vlog(domain, IGT_LOG_CRITICAL, f, ap);
		va_end(ap);
	}
	igt_info("Stack trace: not implemented\n");
	igt_fail(IGT_EXIT_FAILURE);
}

void igt_kill_children(int signal)
{
	for (int c = 0; c < num_test_children; c++)
		if (test_children[c] > 0)
			kill(test_children[c], signal);
}

void __igt_abort(const char *domain, const char *file, const int line,
		 const char *func, const char *expression, const char *f, ...)
{
	int err = errno;
	va_list ap;

	igt_is_aborting = true;

	igt_kmsg(KMSG_ERR "%s[%d]: Abort in function %s, file %s:%i, %s\n",
		 command_str, getpid(), func, file, line, expression);

	igt_log(domain, IGT_LOG_CRITICAL,
		"Test abort in function %s, file %s:%i:\n", func, file, line);
	igt_log(domain, IGT_LOG_CRITICAL, "abort condition: %s\n", expression);
	if (err)
		igt_log(domain, IGT_LOG_CRITICAL, "Last errno: %i, %s\n", err,
			strerror(err));
	if (f) {
		va_start(ap, f);
		igt_vlog(domain, IGT_LOG_CRITICAL, f, ap);
		va_end(ap);
	}

	igt_kill_children(SIGKILL);
	igt_info("Stack trace: not implemented\n");
	log_buffer_dump();
	exit(IGT_EXIT_ABORT);
}

void igt_exit(void)
{
	const char *result = NULL;
	int tmp;

	if (!test_with_subtests)
		thread_assert_no_failures();

	igt_exit_called = true;

	if (run_single_subtest && !run_single_subtest_found) {
		igt_critical("Unknown subtest: %s\n", run_single_subtest);
		exit(IGT_EXIT_INVALID);
	}

	if (igt_only_list_subtests())
		exit(IGT_EXIT_SUCCESS);

	/* A test with subtests that ran none of them is a bug. */
	assert(!test_with_subtests || skipped_one || succeeded_one ||
	       failed_one);

	if (test_with_subtests && !failed_one)
		igt_exitcode = succeeded_one ? IGT_EXIT_SUCCESS : IGT_EXIT_SKIP;

	if (command_str)
		igt_kmsg(KMSG_INFO "%s: exiting, ret=%d\n", command_str,
			 igt_exitcode);
	igt_debug("Exiting with status code %d\n", igt_exitcode);

	/* Every child must have been waited for. */
	igt_kill_children(SIGKILL);
	assert(!num_test_children);
	assert(waitpid(-1, &tmp, WNOHANG) == -1 && errno == ECHILD);

	if (!test_with_subtests) {
		struct timespec now;

		switch (igt_exitcode) {
		case IGT_EXIT_SUCCESS:
			result = "SUCCESS";
			break;
		case IGT_EXIT_SKIP:
			result = "SKIP";
			break;
		default:
			result = "FAIL";
		}
		igt_gettime(&now);
		printf("%s (%.3fs)\n", result,
		       igt_time_elapsed(&subtest_time, &now));
	}

	exit(igt_exitcode);
}

/* --- igt_fork ---------------------------------------------------------- */

static void children_exit_handler(int sig)
{
	int status;

	(void)sig;
	/* may run from a fatal signal: wait for each, nothing else */
	while (num_test_children-- && wait(&status))
		;
}

bool __igt_fork(void)
{
	internal_assert(!test_with_subtests || in_subtest,
			"forking is only allowed in subtests or igt_simple_main\n");
	internal_assert(!test_child,
			"forking is not allowed from already forked children\n");

	igt_install_exit_handler(children_exit_handler);

	if (num_test_children >= test_children_size) {
		test_children_size = test_children_size ?
				     test_children_size * 2 : 4;
		test_children = realloc(test_children, sizeof(pid_t) *
					test_children_size);
		igt_assert(test_children);
	}

	/* no buffered output may be written twice */
	fflush(NULL);

	switch (test_children[num_test_children++] = fork()) {
	case -1:
		num_test_children--;
		igt_assert(0);
		return false;
	case 0:
		test_child = true;
		pthread_mutex_init(&print_mutex, NULL);
		pthread_mutex_init(&log_buffer_mutex, NULL);
		exit_handler_count = 0;
		oom_adjust_for_doom();
		return true;
	default:
		return false;
	}
}

int __igt_waitchildren(void)
{
	int err = 0, count = 0;

	assert(!test_child);

	while (count < num_test_children) {
		int status = -1, c;
		pid_t pid;

		pid = wait(&status);
		if (pid == -1) {
			if (errno == EINTR)
				continue;
			printf("wait(num_children:%d) failed with %m\n",
			       num_test_children - count);
			return IGT_EXIT_FAILURE;
		}

		for (c = 0; c < num_test_children; c++)
			if (pid == test_children[c])
				break;
		if (c == num_test_children)
			continue;	/* not one of ours */

		if (err == 0 && status != 0) {
			if (WIFEXITED(status)) {
				printf("child %i failed with exit status %i\n",
				       c, WEXITSTATUS(status));
				err = WEXITSTATUS(status);
			} else if (WIFSIGNALED(status)) {
				printf("child %i died with signal %i, %s\n",
				       c, WTERMSIG(status),
				       strsignal(WTERMSIG(status)));
				err = 128 + WTERMSIG(status);
			} else {
				printf("Unhandled failure [%d] in child %i\n",
				       status, c);
				err = 256;
			}
			igt_kill_children(SIGKILL);
		}
		count++;
	}

	num_test_children = 0;
	return err;
}

void igt_waitchildren(void)
{
	int err = __igt_waitchildren();

	if (err)
		igt_fail(err);
}

/* --- igt_system -------------------------------------------------------- */

static void log_output(int *fd, enum igt_log_level level)
{
	char buf[PIPE_BUF];
	ssize_t len;

	if (*fd < 0)
		return;
	memset(buf, 0, sizeof(buf));
	len = read(*fd, buf, sizeof(buf) - 1);
	if (len <= 0) {
		close(*fd);
		*fd = -1;
		return;
	}
	igt_log(IGT_LOG_DOMAIN, level, "[cmd] %s", buf);
}

int igt_system(const char *command)
{
	int outpipe[2] = { -1, -1 }, errpipe[2] = { -1, -1 }, status;
	pid_t pid;

	if (pipe(outpipe) < 0 || pipe(errpipe) < 0)
		goto err;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		goto err;
	if (pid == 0) {
		close(outpipe[0]);
		close(errpipe[0]);
		if (dup2(outpipe[1], STDOUT_FILENO) >= 0 &&
		    dup2(errpipe[1], STDERR_FILENO) >= 0)
			execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		_exit(EXIT_FAILURE);
	}

	close(outpipe[1]);
	close(errpipe[1]);
	/* stdout lines as information, stderr lines as warnings */
	while (outpipe[0] >= 0 || errpipe[0] >= 0) {
		struct pollfd pfd[2] = {
			{ .fd = outpipe[0], .events = POLLIN },
			{ .fd = errpipe[0], .events = POLLIN },
		};

		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents)
			log_output(&outpipe[0], IGT_LOG_INFO);
		if (pfd[1].revents)
			log_output(&errpipe[0], IGT_LOG_WARN);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WEXITSTATUS(status);
err:
	for (int i = 0; i < 2; i++) {
		if (outpipe[i] >= 0)
			close(outpipe[i]);
		if (errpipe[i] >= 0)
			close(errpipe[i]);
	}
	return -1;
}
