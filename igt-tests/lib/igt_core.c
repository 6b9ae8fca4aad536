// SPDX-License-Identifier: MIT
/*
 * vseg's small implementation of the IGT test framework core: option
 * parsing, the subtest / dynamic subtest / fixture state machine, results,
 * exit codes, logging and a minimal igt_fork.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "igt_core.h"

#ifndef IGT_VSEG_VERSION
#define IGT_VSEG_VERSION "1.30"
#endif

sigjmp_buf igt_subtest_jmpbuf;
sigjmp_buf igt_dynamic_jmpbuf;

enum igt_log_level igt_log_level = IGT_LOG_INFO;

/* --- state ------------------------------------------------------------- */

enum henceforth { CONT = 0, SKIP, FAIL };

static const char *command_str = "igt";
static pid_t main_pid;
static bool test_with_subtests;
static bool list_subtests;
static bool describe_subtests;
static const char *describe_pattern;
static char *run_single_subtest;
static bool run_single_subtest_found;
static char *run_single_dynamic_subtest;

static char *in_subtest;
static const char *in_subtest_file;
static int in_subtest_line;
static char *in_dynamic_subtest;
static bool in_fixture;
static bool in_dynamic_container;
static bool dynamic_entered;
static bool dynamic_failed_one;
static bool dynamic_succeeded_one;
static bool container_failed;
static struct timespec subtest_time, dynamic_time;

static enum henceforth skip_subtests_henceforth;
static bool succeeded_one, failed_one, skipped_one;
static int igt_exitcode = IGT_EXIT_SUCCESS;

static bool test_child;
#define MAX_CHILDREN 64
static pid_t children[MAX_CHILDREN];
static int num_children;

static bool sentinel_on_stderr;

/* Descriptions: the pending one, and those of the enclosing groups. */
#define DESC_LEN 4096
#define MAX_GROUP_DEPTH 16
static char current_description[DESC_LEN];
static char *group_descriptions[MAX_GROUP_DEPTH];
static int group_depth;

/* Ring of recent debug messages, dumped when something fails. */
#define LOG_RING 256
static char *log_ring[LOG_RING];
static unsigned int log_ring_next;

/* --- small helpers ----------------------------------------------------- */

int igt_gettime(struct timespec *ts)
{
	memset(ts, 0, sizeof(*ts));
	if (clock_gettime(CLOCK_MONOTONIC, ts))
		return -errno;
	return 0;
}

double igt_time_elapsed(struct timespec *then, struct timespec *now)
{
	if ((then->tv_sec || then->tv_nsec) && (now->tv_sec || now->tv_nsec))
		return (double)(now->tv_sec - then->tv_sec) +
		       (double)(now->tv_nsec - then->tv_nsec) / 1e9;
	return -1.0;
}

uint64_t igt_nsec_elapsed(struct timespec *start)
{
	struct timespec now;

	igt_gettime(&now);
	if (!start->tv_sec && !start->tv_nsec) {
		*start = now;
		return 0;
	}
	return (uint64_t)(now.tv_sec - start->tv_sec) * NSEC_PER_SEC +
	       (uint64_t)(now.tv_nsec - start->tv_nsec);
}

static double elapsed_since(struct timespec *then)
{
	struct timespec now;
	double t;

	igt_gettime(&now);
	t = igt_time_elapsed(then, &now);
	return t < 0 ? 0.0 : t;
}

void igt_kmsg(const char *format, ...)
{
	va_list ap;
	int fd;

	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	va_start(ap, format);
	if (vdprintf(fd, format, ap) < 0) {
		/* nothing to do: the kernel log is best effort */
	}
	va_end(ap);
	close(fd);
}

int igt_system(const char *command)
{
	int status;

	fflush(stdout);
	fflush(stderr);
	status = system(command);
	if (status == -1)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Comma-separated list of fnmatch globs; a leading '!' negates; last wins. */
static bool pattern_match(const char *patterns, const char *name)
{
	char *copy, *tok, *save = NULL;
	bool match = false;

	copy = strdup(patterns);
	if (!copy)
		return false;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		bool neg = tok[0] == '!';

		if (fnmatch(neg ? tok + 1 : tok, name, 0) == 0)
			match = !neg;
	}
	free(copy);
	return match;
}

static bool valid_name(const char *name)
{
	if (!name[0])
		return false;
	for (const char *p = name; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			return false;
	}
	return true;
}

/* Print a result/marker line on stdout (and stderr if the runner asks). */
__attribute__((format(printf, 1, 2)))
static void marker(const char *fmt, ...)
{
	va_list ap;

	fflush(stderr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
	if (sentinel_on_stderr) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fflush(stderr);
	}
}

/* --- logging ----------------------------------------------------------- */

static const char *level_name(enum igt_log_level level)
{
	switch (level) {
	case IGT_LOG_DEBUG:
		return "DEBUG";
	case IGT_LOG_INFO:
		return "INFO";
	case IGT_LOG_WARN:
		return "WARNING";
	case IGT_LOG_CRITICAL:
		return "CRITICAL";
	default:
		return "NONE";
	}
}

static void ring_store(const char *prefix, const char *msg)
{
	char *line;

	if (asprintf(&line, "%s%s", prefix, msg) < 0)
		return;
	free(log_ring[log_ring_next]);
	log_ring[log_ring_next] = line;
	log_ring_next = (log_ring_next + 1) % LOG_RING;
}

static void ring_clear(void)
{
	for (unsigned int i = 0; i < LOG_RING; i++) {
		free(log_ring[i]);
		log_ring[i] = NULL;
	}
	log_ring_next = 0;
}

static void ring_dump(void)
{
	bool any = false;

	if (igt_log_level == IGT_LOG_DEBUG)
		return;	/* already printed as it happened */
	for (unsigned int i = 0; i < LOG_RING; i++) {
		const char *line = log_ring[(log_ring_next + i) % LOG_RING];

		if (!line)
			continue;
		if (!any)
			fprintf(stderr, "**** DEBUG ****\n");
		any = true;
		fputs(line, stderr);
		if (line[0] && line[strlen(line) - 1] != '\n')
			fputc('\n', stderr);
	}
	if (any)
		fprintf(stderr, "****  END  ****\n");
	ring_clear();
}

void igt_vlog(const char *domain, enum igt_log_level level,
	      const char *format, va_list args)
{
	static bool line_start[2] = { true, true };
	char prefix[128] = "";
	char *msg;
	FILE *out;
	int which;

	if (level >= IGT_LOG_NONE)
		return;
	if (vasprintf(&msg, format, args) < 0)
		return;

	if (level != IGT_LOG_INFO)
		snprintf(prefix, sizeof(prefix), "(%s:%d) %s%s%s: ",
			 command_str, getpid(), domain ? domain : "",
			 domain ? "-" : "", level_name(level));

	if (level == IGT_LOG_DEBUG)
		ring_store(prefix, msg);
	if (level < igt_log_level) {
		free(msg);
		return;
	}

	which = level >= IGT_LOG_WARN;
	out = which ? stderr : stdout;
	if (which)
		fflush(stdout);
	if (line_start[which] && prefix[0])
		fputs(prefix, out);
	fputs(msg, out);
	line_start[which] = msg[0] && msg[strlen(msg) - 1] == '\n';
	fflush(out);
	free(msg);
}

void igt_log(const char *domain, enum igt_log_level level,
	     const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	igt_vlog(domain, level, format, ap);
	va_end(ap);
}

/* --- exit handlers ----------------------------------------------------- */

#define MAX_EXIT_HANDLERS 10
static igt_exit_handler_t exit_handlers[MAX_EXIT_HANDLERS];
static int num_exit_handlers;
static bool exit_handlers_running;

static void run_exit_handlers(int sig)
{
	if (exit_handlers_running || test_child || getpid() != main_pid)
		return;
	exit_handlers_running = true;
	for (int i = num_exit_handlers - 1; i >= 0; i--)
		exit_handlers[i](sig);
	num_exit_handlers = 0;
	exit_handlers_running = false;
}

static void atexit_handler(void)
{
	run_exit_handlers(0);
}

static const int fatal_signals[] = {
	SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGPIPE, SIGABRT, SIGSEGV, SIGBUS,
	SIGFPE, SIGILL,
};

static void fatal_sig_handler(int sig)
{
	run_exit_handlers(sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

void igt_install_exit_handler(igt_exit_handler_t fn)
{
	static bool installed;

	for (int i = 0; i < num_exit_handlers; i++)
		if (exit_handlers[i] == fn)
			return;
	if (num_exit_handlers >= MAX_EXIT_HANDLERS) {
		igt_critical("too many exit handlers\n");
		exit(IGT_EXIT_ABORT);
	}
	exit_handlers[num_exit_handlers++] = fn;

	if (installed)
		return;
	installed = true;
	atexit(atexit_handler);
	for (unsigned int i = 0; i < sizeof(fatal_signals) / sizeof(int); i++)
		signal(fatal_signals[i], fatal_sig_handler);
}

/* --- option parsing ---------------------------------------------------- */

enum {
	OPT_LIST_SUBTESTS = 500,
	OPT_RUN_SUBTEST,
	OPT_DYNAMIC_SUBTEST,
	OPT_DESCRIBE,
	OPT_HELP_DESCRIPTION,
	OPT_DEBUG,
	OPT_INTERACTIVE_DEBUG,
	OPT_SKIP_CRC,
	OPT_DEVICE,
	OPT_TRACE_OOPS,
	OPT_HELP = 'h',
};

static void print_version(void)
{
	struct utsname uts;

	if (list_subtests || describe_subtests)
		return;
	uname(&uts);
	printf("IGT-Version: %s-vseg (x86_64) (%s: %s %s)\n", IGT_VSEG_VERSION,
	       uts.sysname, uts.release, uts.machine);
	fflush(stdout);
}

static void print_usage(const char *help_str, bool output_on_stderr)
{
	FILE *f = output_on_stderr ? stderr : stdout;

	fprintf(f, "Usage: %s [OPTIONS]\n", command_str);
	fprintf(f, "  --list-subtests\n"
		   "  --run-subtest <pattern>\n"
		   "  --dynamic-subtest <pattern>\n"
		   "  --describe [pattern]\n"
		   "  --help-description\n"
		   "  --debug[=log-domain]\n"
		   "  --help|-h\n");
	if (help_str)
		fprintf(f, "%s\n", help_str);
}

static int common_init(int *argc, char **argv, const char *extra_short_opts,
		       const struct option *extra_long_opts,
		       const char *help_str,
		       igt_opt_handler_t extra_opt_handler, void *handler_data)
{
	static const struct option base_opts[] = {
		{ "list-subtests", no_argument, NULL, OPT_LIST_SUBTESTS },
		{ "run-subtest", required_argument, NULL, OPT_RUN_SUBTEST },
		{ "dynamic-subtest", required_argument, NULL,
		  OPT_DYNAMIC_SUBTEST },
		{ "describe", optional_argument, NULL, OPT_DESCRIBE },
		{ "help-description", no_argument, NULL, OPT_HELP_DESCRIPTION },
		{ "debug", optional_argument, NULL, OPT_DEBUG },
		{ "interactive-debug", optional_argument, NULL,
		  OPT_INTERACTIVE_DEBUG },
		{ "skip-crc-compare", no_argument, NULL, OPT_SKIP_CRC },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "trace-on-oops", no_argument, NULL, OPT_TRACE_OOPS },
		{ "help", no_argument, NULL, OPT_HELP },
	};
	const size_t nbase = sizeof(base_opts) / sizeof(base_opts[0]);
	struct option *opts;
	size_t nextra = 0;
	char *short_opts;
	int ret = 0, c, idx;

	command_str = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 :
		      argv[0];
	main_pid = getpid();
	sentinel_on_stderr = getenv("IGT_SENTINEL_ON_STDERR") != NULL;
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (extra_long_opts)
		while (extra_long_opts[nextra].name)
			nextra++;
	opts = calloc(nbase + nextra + 1, sizeof(*opts));
	if (asprintf(&short_opts, "h%s", extra_short_opts ?: "") < 0 || !opts) {
		fprintf(stderr, "out of memory\n");
		exit(IGT_EXIT_ABORT);
	}
	memcpy(opts, base_opts, sizeof(base_opts));
	if (nextra)
		memcpy(opts + nbase, extra_long_opts, nextra * sizeof(*opts));

	opterr = 1;
	while ((c = getopt_long(*argc, argv, short_opts, opts, &idx)) != -1) {
		switch (c) {
		case OPT_LIST_SUBTESTS:
			if (!test_with_subtests) {
				/* a simple test has no subtests to list */
				ret = -2;
				goto out;
			}
			list_subtests = true;
			break;
		case OPT_RUN_SUBTEST:
			free(run_single_subtest);
			run_single_subtest = strdup(optarg);
			break;
		case OPT_DYNAMIC_SUBTEST:
			free(run_single_dynamic_subtest);
			run_single_dynamic_subtest = strdup(optarg);
			break;
		case OPT_DESCRIBE:
			describe_subtests = true;
			if (optarg)
				describe_pattern = optarg;
			else if (optind < *argc && argv[optind][0] != '-')
				describe_pattern = argv[optind++];
			break;
		case OPT_HELP_DESCRIPTION:
			printf("%s\n", __igt_test_description ?
			       __igt_test_description : "");
			ret = -1;
			goto out;
		case OPT_DEBUG:
			igt_log_level = IGT_LOG_DEBUG;
			break;
		case OPT_INTERACTIVE_DEBUG:
		case OPT_SKIP_CRC:
		case OPT_DEVICE:
		case OPT_TRACE_OOPS:
			break;	/* accepted for compatibility, no effect */
		case OPT_HELP:
			print_usage(help_str, false);
			ret = -1;
			goto out;
		case '?':
		case ':':
			print_usage(help_str, true);
			ret = -2;
			goto out;
		default:
			if (extra_opt_handler &&
			    extra_opt_handler(c, idx, handler_data) ==
			    IGT_OPT_HANDLER_SUCCESS)
				break;
			print_usage(help_str, true);
			ret = -2;
			goto out;
		}
	}

	if (describe_subtests && !test_with_subtests) {
		printf("%s\n", __igt_test_description ?
		       __igt_test_description : "");
		ret = -1;
	}
	if (run_single_subtest && !test_with_subtests) {
		fprintf(stderr, "Unknown subtest: %s\n", run_single_subtest);
		ret = -2;
	}

out:
	free(opts);
	free(short_opts);
	if (ret == -1)
		exit(IGT_EXIT_SUCCESS);
	if (ret == -2)
		exit(IGT_EXIT_INVALID);

	/* Leave argv[0] followed by the arguments getopt did not consume. */
	for (int i = optind; i < *argc; i++)
		argv[i - optind + 1] = argv[i];
	*argc = *argc - optind + 1;

	if (describe_subtests && __igt_test_description)
		printf("%s\n\n", __igt_test_description);
	print_version();
	errno = 0;
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
	test_with_subtests = false;
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

bool igt_only_list_subtests(void)
{
	return list_subtests;
}

__noreturn static void internal_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void internal_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "(%s:%d) igt_core-CRITICAL: ", command_str, getpid());
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	run_exit_handlers(0);
	_exit(IGT_EXIT_ABORT);
}

/* --- descriptions ------------------------------------------------------ */

void igt_describe_f(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(current_description, sizeof(current_description), fmt,
		      ap);
	va_end(ap);
	if (n < 0)
		current_description[0] = '\0';
}

static void print_indented(const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		printf("  %.*s\n", (int)len, p);
		p += len;
		if (*p == '\n')
			p++;
	}
}

static void describe_subtest(const char *name, const char *file, int line)
{
	bool any = false;

	printf("SUB %s %s:%d:\n", name, file, line);
	for (int i = 0; i < group_depth; i++) {
		if (!group_descriptions[i])
			continue;
		if (any)
			printf("\n");
		print_indented(group_descriptions[i]);
		any = true;
	}
	if (current_description[0]) {
		if (any)
			printf("\n");
		print_indented(current_description);
		any = true;
	}
	if (!any)
		printf("  NO DOCUMENTATION!\n");
	printf("\n");
}

void __igt_subtest_group_save(int *save, int *desc)
{
	if (group_depth >= MAX_GROUP_DEPTH)
		internal_error("igt_subtest_group nested too deeply\n");
	group_descriptions[group_depth] = current_description[0] ?
					  strdup(current_description) : NULL;
	*desc = group_descriptions[group_depth] != NULL;
	group_depth++;
	current_description[0] = '\0';
	*save = skip_subtests_henceforth;
}

void __igt_subtest_group_restore(int save, int desc)
{
	(void)desc;
	if (group_depth > 0) {
		group_depth--;
		free(group_descriptions[group_depth]);
		group_descriptions[group_depth] = NULL;
	}
	skip_subtests_henceforth = save;
}

/* --- fixtures and subtests --------------------------------------------- */

bool __igt_fixture(void)
{
	if (in_fixture)
		internal_error("igt_fixture blocks cannot be nested\n");
	if (in_subtest)
		internal_error("igt_fixture is not allowed inside a subtest\n");
	if (list_subtests || describe_subtests)
		return false;
	if (skip_subtests_henceforth)
		return false;
	in_fixture = true;
	errno = 0;
	return true;
}

void __igt_fixture_complete(void)
{
	in_fixture = false;
}

void __igt_fixture_end(void)
{
	if (!in_fixture)
		internal_error("__igt_fixture_end outside a fixture\n");
	in_fixture = false;
	siglongjmp(igt_subtest_jmpbuf, 1);
}

bool __igt_run_subtest(const char *subtest_name, const char *file,
		       const int line)
{
	if (in_subtest)
		internal_error("igt_subtest \"%s\" nested in \"%s\"\n",
			       subtest_name, in_subtest);
	if (in_fixture)
		internal_error("igt_subtest \"%s\" inside an igt_fixture\n",
			       subtest_name);
	if (!valid_name(subtest_name))
		internal_error("Invalid subtest name \"%s\".\n", subtest_name);

	if (list_subtests) {
		printf("%s\n", subtest_name);
		current_description[0] = '\0';
		return false;
	}
	if (describe_subtests) {
		if (!describe_pattern ||
		    pattern_match(describe_pattern, subtest_name))
			describe_subtest(subtest_name, file, line);
		current_description[0] = '\0';
		return false;
	}
	current_description[0] = '\0';

	if (run_single_subtest &&
	    !pattern_match(run_single_subtest, subtest_name))
		return false;
	run_single_subtest_found = true;

	if (skip_subtests_henceforth) {
		const char *result = skip_subtests_henceforth == SKIP ?
				     "SKIP" : "FAIL";

		marker("Starting subtest: %s\n", subtest_name);
		marker("Subtest %s: %s (0.000s)\n", subtest_name, result);
		if (skip_subtests_henceforth == SKIP) {
			skipped_one = true;
		} else {
			failed_one = true;
			if (igt_exitcode == IGT_EXIT_SUCCESS)
				igt_exitcode = IGT_EXIT_FAILURE;
		}
		return false;
	}

	igt_kmsg(KMSG_INFO "%s: starting subtest %s\n", command_str,
		 subtest_name);
	marker("Starting subtest: %s\n", subtest_name);
	ring_clear();

	errno = 0;
	in_subtest = strdup(subtest_name);
	in_subtest_file = file;
	in_subtest_line = line;
	in_dynamic_container = false;
	igt_gettime(&subtest_time);
	return true;
}

bool __igt_enter_dynamic_container(void)
{
	in_dynamic_container = true;
	dynamic_entered = false;
	dynamic_failed_one = false;
	dynamic_succeeded_one = false;
	container_failed = false;
	return true;
}

bool __igt_run_dynamic_subtest(const char *dynamic_subtest_name)
{
	if (!in_subtest || !in_dynamic_container)
		internal_error("igt_dynamic \"%s\" outside an igt_subtest_with_dynamic block\n",
			       dynamic_subtest_name);
	if (in_dynamic_subtest)
		internal_error("igt_dynamic \"%s\" nested in \"%s\"\n",
			       dynamic_subtest_name, in_dynamic_subtest);
	if (!valid_name(dynamic_subtest_name))
		internal_error("Invalid dynamic subtest name \"%s\".\n",
			       dynamic_subtest_name);

	if (run_single_dynamic_subtest &&
	    !pattern_match(run_single_dynamic_subtest, dynamic_subtest_name))
		return false;

	igt_kmsg(KMSG_INFO "%s: starting dynamic subtest %s\n", command_str,
		 dynamic_subtest_name);
	marker("Starting dynamic subtest: %s\n", dynamic_subtest_name);
	ring_clear();

	errno = 0;
	in_dynamic_subtest = strdup(dynamic_subtest_name);
	dynamic_entered = true;
	igt_gettime(&dynamic_time);
	return true;
}

/* Leave the current dynamic subtest or subtest with @result; no return. */
__noreturn static void exit_subtest(const char *result)
{
	if (in_dynamic_subtest) {
		marker("Dynamic subtest %s: %s (%.3fs)\n", in_dynamic_subtest,
		       result, elapsed_since(&dynamic_time));
		igt_kmsg(KMSG_INFO "%s: finished dynamic subtest %s, %s\n",
			 command_str, in_dynamic_subtest, result);
		if (!strcmp(result, "FAIL"))
			dynamic_failed_one = true;
		else if (!strcmp(result, "SUCCESS"))
			dynamic_succeeded_one = true;
		free(in_dynamic_subtest);
		in_dynamic_subtest = NULL;
		siglongjmp(igt_dynamic_jmpbuf, 1);
	}

	if (in_dynamic_container) {
		if (dynamic_failed_one || container_failed)
			result = "FAIL";
		else if (dynamic_succeeded_one)
			result = "SUCCESS";
		else
			result = "SKIP";
		if (!dynamic_entered)
			igt_info("No dynamic tests executed.\n");
	}

	marker("Subtest %s: %s (%.3fs)\n", in_subtest, result,
	       elapsed_since(&subtest_time));
	igt_kmsg(KMSG_INFO "%s: finished subtest %s, %s\n", command_str,
		 in_subtest, result);

	if (!strcmp(result, "SUCCESS")) {
		succeeded_one = true;
	} else if (!strcmp(result, "SKIP")) {
		skipped_one = true;
	} else {
		failed_one = true;
		if (igt_exitcode == IGT_EXIT_SUCCESS)
			igt_exitcode = IGT_EXIT_FAILURE;
	}

	free(in_subtest);
	in_subtest = NULL;
	in_dynamic_container = false;
	siglongjmp(igt_subtest_jmpbuf, 1);
}

void igt_success(void)
{
	if (test_child)
		return;
	if (in_dynamic_subtest || in_subtest)
		exit_subtest("SUCCESS");
	succeeded_one = true;
}

bool igt_can_fail(void)
{
	return !test_with_subtests || in_fixture || in_subtest;
}

void igt_skip(const char *f, ...)
{
	va_list ap;

	if (f) {
		va_start(ap, f);
		igt_vlog(IGT_LOG_DOMAIN, IGT_LOG_INFO, f, ap);
		va_end(ap);
	}

	if (test_child) {
		fflush(stdout);
		exit(IGT_EXIT_SKIP);
	}

	if (in_subtest)
		exit_subtest("SKIP");

	if (!test_with_subtests) {
		/* A simple test: the whole binary skips. */
		skipped_one = true;
		igt_exit();
	}

	skip_subtests_henceforth = SKIP;
	if (in_fixture)
		__igt_fixture_end();

	/* Outside any block: everything that follows would skip. */
	igt_exit();
}

void __igt_skip_check(const char *file, const int line, const char *func,
		      const char *check, const char *format, ...)
{
	int err = errno;
	char *extra = NULL;
	va_list ap;

	if (format) {
		va_start(ap, format);
		if (vasprintf(&extra, format, ap) < 0)
			extra = NULL;
		va_end(ap);
	}

	if (err)
		igt_skip("Test requirement not met in function %s, file %s:%i:\n"
			 "Test requirement: %s\nLast errno: %i, %s\n%s", func,
			 file, line, check, err, strerror(err),
			 extra ? extra : "");
	igt_skip("Test requirement not met in function %s, file %s:%i:\n"
		 "Test requirement: %s\n%s", func, file, line, check,
		 extra ? extra : "");
}

void igt_fail(int exitcode)
{
	if (exitcode == IGT_EXIT_SUCCESS || exitcode == IGT_EXIT_SKIP)
		exitcode = IGT_EXIT_FAILURE;

	ring_dump();

	if (test_child) {
		fflush(stdout);
		fflush(stderr);
		exit(exitcode);
	}

	if (igt_exitcode == IGT_EXIT_SUCCESS)
		igt_exitcode = exitcode;

	if (in_dynamic_subtest)
		exit_subtest("FAIL");

	if (in_subtest) {
		if (in_dynamic_container) {
			igt_critical("Failure outside an igt_dynamic block of %s\n",
				     in_subtest);
			container_failed = true;
		}
		exit_subtest("FAIL");
	}

	if (!test_with_subtests) {
		failed_one = true;
		igt_exit();
	}

	failed_one = true;
	skip_subtests_henceforth = FAIL;
	if (in_fixture)
		__igt_fixture_end();

	igt_exit();
}

void __igt_fail_assert(const char *domain, const char *file, const int line,
		       const char *func, const char *assertion,
		       const char *format, ...)
{
	int err = errno;
	va_list ap;

	igt_log(domain, IGT_LOG_CRITICAL,
		"Test assertion failure function %s, file %s:%i:\n",
		func, file, line);
	igt_log(domain, IGT_LOG_CRITICAL, "Failed assertion: %s\n", assertion);
	if (err)
		igt_log(domain, IGT_LOG_CRITICAL, "Last errno: %i, %s\n", err,
			strerror(err));
	if (format) {
		va_start(ap, format);
		igt_vlog(domain, IGT_LOG_CRITICAL, format, ap);
		va_end(ap);
	}
	igt_fail(IGT_EXIT_FAILURE);
}

void __igt_abort(const char *domain, const char *file, const int line,
		 const char *func, const char *expression, const char *f, ...)
{
	va_list ap;

	igt_log(domain, IGT_LOG_CRITICAL,
		"Test abort in function %s, file %s:%i:\n", func, file, line);
	igt_log(domain, IGT_LOG_CRITICAL, "abort condition: %s\n", expression);
	if (f) {
		va_start(ap, f);
		igt_vlog(domain, IGT_LOG_CRITICAL, f, ap);
		va_end(ap);
	}
	if (in_dynamic_subtest)
		marker("Dynamic subtest %s: ABORT (%.3fs)\n",
		       in_dynamic_subtest, elapsed_since(&dynamic_time));
	if (in_subtest)
		marker("Subtest %s: ABORT (%.3fs)\n", in_subtest,
		       elapsed_since(&subtest_time));
	run_exit_handlers(0);
	fflush(stdout);
	fflush(stderr);
	_exit(IGT_EXIT_ABORT);
}

void igt_exit(void)
{
	int status;

	if (in_subtest || in_fixture)
		internal_error("igt_exit called inside a subtest or fixture\n");

	fflush(stdout);
	fflush(stderr);

	if (list_subtests || describe_subtests)
		exit(IGT_EXIT_SUCCESS);

	if (run_single_subtest && !run_single_subtest_found) {
		fprintf(stderr, "Unknown subtest: %s\n", run_single_subtest);
		exit(IGT_EXIT_INVALID);
	}

	if (failed_one || igt_exitcode != IGT_EXIT_SUCCESS)
		status = igt_exitcode != IGT_EXIT_SUCCESS ? igt_exitcode :
			 IGT_EXIT_FAILURE;
	else if (!test_with_subtests && !skipped_one)
		status = IGT_EXIT_SUCCESS;
	else if (succeeded_one)
		status = IGT_EXIT_SUCCESS;
	else
		status = IGT_EXIT_SKIP;

	if (!test_with_subtests) {
		const char *r = status == IGT_EXIT_SUCCESS ? "SUCCESS" :
				status == IGT_EXIT_SKIP ? "SKIP" : "FAIL";
		printf("%s (%s)\n", r, command_str);
	}
	fflush(stdout);
	exit(status);
}

/* --- fork support ------------------------------------------------------ */

bool __igt_fork(void)
{
	pid_t pid;

	if (test_child)
		internal_error("igt_fork cannot be nested\n");
	if (num_children >= MAX_CHILDREN)
		internal_error("too many igt_fork children\n");

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		internal_error("fork failed: %s\n", strerror(errno));
	if (pid == 0) {
		test_child = true;
		num_children = 0;
		num_exit_handlers = 0;
		return true;
	}
	children[num_children++] = pid;
	return false;
}

int __igt_waitchildren(void)
{
	int err = 0;

	for (int i = 0; i < num_children; i++) {
		int status;

		while (waitpid(children[i], &status, 0) < 0) {
			if (errno != EINTR) {
				status = -1;
				break;
			}
		}
		if (status == -1) {
			err = err ?: IGT_EXIT_FAILURE;
		} else if (WIFSIGNALED(status)) {
			igt_warn("child %d died with signal %d\n", i,
				 WTERMSIG(status));
			err = err ?: IGT_EXIT_FAILURE;
		} else if (WEXITSTATUS(status)) {
			igt_warn("child %d exited with status %d\n", i,
				 WEXITSTATUS(status));
			err = err ?: WEXITSTATUS(status);
		}
	}
	num_children = 0;
	return err;
}

void igt_waitchildren(void)
{
	int err = __igt_waitchildren();

	if (err)
		igt_fail(err);
}

void igt_kill_children(int signal)
{
	for (int i = 0; i < num_children; i++)
		kill(children[i], signal);
}
