// SPDX-License-Identifier: MIT
/*
 * vseg_info: tools/vseg-info, run as a user would, checked against
 * DRM_IOCTL_VSEG_QUERY_SEGMENTS and DRM_IOCTL_VSEG_DEVICE_QUERY.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg info
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: segment query tool
 * Description: Run the vseg-info tool (found through $VSEG_INFO, beside the
 *	tests in the vseg tree, or in $PATH; the test skips without it) and
 *	check what it prints against the segment query and the device query.
 *
 * SUBTEST: info-json
 * Description: With buffers resident in every segment and a head on,
 *	vseg-info --json on the render node is well-formed JSON whose every
 *	field (paging buffer, system usage, each segment's kind, flags and
 *	flag names, addresses, sizes, banks, invalid ranges and usage) equals
 *	the segment query's, and whose UAPI version, engines, heads (which
 *	are on) and limits equal DEVICE_QUERY's; without --device it finds the
 *	same device by itself.
 *
 * SUBTEST: info-json-profiles
 * Description: The JSON of each built-in profile's table equals the query.
 *	Dynamic subtests: one per built-in profile, named after it.
 *
 * SUBTEST: info-text
 * Description: The text output names every segment with its id, kind and
 *	flags (the hex value and the WDDM name of each set bit) as the query
 *	returns them, and the UAPI version, every engine and the number of
 *	heads as DEVICE_QUERY returns them.
 *
 * SUBTEST: info-no-device-query
 * Description: With DRM_IOCTL_VSEG_DEVICE_QUERY failing as on a vseg
 *	before it (-EINVAL, then -ENOTTY, by a seccomp filter on the tool),
 *	vseg-info still exits 0 with the segment table equal to the query,
 *	says on stderr that the kernel has no DEVICE_QUERY, prints
 *	"device_query": false and null engines, heads, limits and UAPI
 *	version in JSON and a "not reported" line in text. Skips without
 *	seccomp in the guest kernel.
 *
 * SUBTEST: info-watch
 * Description: --json --watch 1 --count 2 prints exactly two well-formed
 *	documents, each equal to the query, and exits 0.
 *
 * SUBTEST: info-errors
 * Description: A node that is not a DRM device, a missing node and bad
 *	arguments give exit status 1 or 2, a message naming the problem on
 *	stderr and nothing on stdout.
 *
 * SUBTEST: info-hostile-client
 * Description: While another process creates, makes resident, pins, evicts
 *	and frees buffers as fast as it can, every report of vseg-info is
 *	well-formed and consistent (usage within each segment's limits);
 *	once that process is gone, the report equals the query again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Run the vseg-info tool and check what it prints "
		     "against the segment query.");

#define BO_SIZE (1u << 20)

static int card_fd = -1;
static int render_fd = -1;
static char tool[PATH_MAX];
static char render_path[PATH_MAX];

static void close_fd(int *fd)
{
	if (*fd >= 0)
		drm_close_driver(*fd);
	*fd = -1;
}

static void cleanup(int sig)
{
	(void)sig;
	close_fd(&render_fd);
	close_fd(&card_fd);
	if (igt_kmod_is_loaded(VSEG_MODULE))
		igt_kmod_unload(VSEG_MODULE);
}

/* render_path: the node of render_fd. */
static void set_render_path(void)
{
	char *name = drmGetDeviceNameFromFd2(render_fd);

	igt_assert(name);
	snprintf(render_path, sizeof(render_path), "%s", name);
	free(name);
}

/* ---- finding and running the tool --------------------------------------- */

static bool executable(const char *path)
{
	return !access(path, X_OK);
}

/* $VSEG_INFO, ../../tools/vseg-info from this binary (igt-tests/build/), $PATH. */
static bool find_tool(void)
{
	const char *env = getenv("VSEG_INFO");
	char self[PATH_MAX], *slash;
	ssize_t len;

	if (env && *env) {
		snprintf(tool, sizeof(tool), "%s", env);
		return executable(tool);
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len > 0) {
		self[len] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if (strlen(self) + sizeof("/../../tools/vseg-info") <= sizeof(tool)) {
				strcpy(tool, self);
				strcat(tool, "/../../tools/vseg-info");
				if (executable(tool))
					return true;
			}
		}
	}
	env = getenv("PATH");
	while (env && *env) {
		size_t n = strcspn(env, ":");

		if (n && n + sizeof("/vseg-info") <= sizeof(tool)) {
			memcpy(tool, env, n);
			strcpy(tool + n, "/vseg-info");
			if (executable(tool))
				return true;
		}
		env += n + (env[n] == ':');
	}
	tool[0] = '\0';
	return false;
}

struct run {
	int status;	/* exit status, or 128 + signal */
	char *out;
	char *err;
};

static char *slurp(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;

	igt_assert(buf);
	while ((n = read(fd, buf + len, cap - len - 1)) != 0) {
		if (n < 0) {
			igt_assert_eq(errno, EINTR);
			continue;
		}
		len += n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			igt_assert(buf);
		}
	}
	buf[len] = '\0';
	return buf;
}

/* Exit status of the child when it could not install its seccomp filter. */
#define NO_FILTER 125

/*
 * Make every ioctl DRM_IOCTL_VSEG_DEVICE_QUERY of this process and its
 * program fail with @err, as on a vseg without it. The tool is of this
 * process's architecture, so the syscall number alone names ioctl.
 */
static int deny_device_query(int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			 (uint32_t)DRM_IOCTL_VSEG_DEVICE_QUERY, 0, 1),
		BPF_STMT(BPF_RET | BPF_K,
			 SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(f) / sizeof(f[0]),
		.filter = f,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/*
 * Run the tool with @args (NULL-terminated), stdout and stderr captured,
 * DEVICE_QUERY failing with @dq_err if it is not 0. stderr goes to a
 * temporary file so that neither pipe can fill up.
 */
static void run_tool_dq(struct run *r, const char * const *args, int dq_err)
{
	const char *argv[16];
	int out[2], errfd, st;
	char errname[] = "/tmp/vseg_info.XXXXXX";
	unsigned int n = 0;
	pid_t pid;

	argv[n++] = tool;
	for (; *args; args++) {
		igt_assert(n < sizeof(argv) / sizeof(argv[0]) - 1);
		argv[n++] = *args;
	}
	argv[n] = NULL;

	igt_assert(!pipe(out));
	errfd = mkstemp(errname);
	igt_assert(errfd >= 0);
	unlink(errname);
	pid = fork();
	igt_assert(pid >= 0);
	if (!pid) {
		dup2(out[1], STDOUT_FILENO);
		dup2(errfd, STDERR_FILENO);
		close(out[0]);
		if (dq_err && deny_device_query(dq_err))
			_exit(NO_FILTER);
		execv(tool, (char * const *)argv);
		_exit(127);
	}
	close(out[1]);
	r->out = slurp(out[0]);
	close(out[0]);
	igt_assert_eq(waitpid(pid, &st, 0), pid);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	lseek(errfd, 0, SEEK_SET);
	r->err = slurp(errfd);
	close(errfd);
}

static void run_tool(struct run *r, const char * const *args)
{
	run_tool_dq(r, args, 0);
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

/* ---- a small JSON parser ------------------------------------------------- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	uint64_t num;
	bool negative;
	char *str;		/* J_STR */
	char *key;		/* as a member of an object */
	struct jval **items;	/* J_ARR, J_OBJ */
	unsigned int count;
};

struct jparser {
	const char *p;
	const char *err;
};

static void jskip(struct jparser *jp)
{
	while (*jp->p == ' ' || *jp->p == '\n' || *jp->p == '\t' || *jp->p == '\r')
		jp->p++;
}

static struct jval *jparse_value(struct jparser *jp, int depth);

static char *jparse_string(struct jparser *jp)
{
	size_t cap = strlen(jp->p) + 1, len = 0;
	char *s;

	if (*jp->p != '"') {
		jp->err = "expected a string";
		return NULL;
	}
	jp->p++;
	s = malloc(cap);
	igt_assert(s);
	while (*jp->p != '"') {
		unsigned char c = *jp->p++;

		if (!c || c < 0x20) {
			jp->err = "bad character in a string";
			free(s);
			return NULL;
		}
		if (c == '\\') {
			c = *jp->p++;
			switch (c) {
			case '"': case '\\': case '/': break;
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u': {
				unsigned int v = 0;

				for (int i = 0; i < 4; i++, jp->p++) {
					char h = *jp->p;

					v <<= 4;
					if (h >= '0' && h <= '9')
						v |= h - '0';
					else if (h >= 'a' && h <= 'f')
						v |= h - 'a' + 10;
					else if (h >= 'A' && h <= 'F')
						v |= h - 'A' + 10;
					else {
						jp->err = "bad \\u escape";
						free(s);
						return NULL;
					}
				}
				c = v < 0x80 ? v : '?';
				break;
			}
			default:
				jp->err = "bad escape";
				free(s);
				return NULL;
			}
		}
		s[len++] = c;
	}
	jp->p++;
	s[len] = '\0';
	return s;
}

static struct jval *jnew(enum jtype type)
{
	struct jval *v = calloc(1, sizeof(*v));

	igt_assert(v);
	v->type = type;
	return v;
}

static void jadd(struct jval *parent, struct jval *child)
{
	parent->items = realloc(parent->items,
				(parent->count + 1) * sizeof(*parent->items));
	igt_assert(parent->items);
	parent->items[parent->count++] = child;
}

static void jfree(struct jval *v)
{
	if (!v)
		return;
	for (unsigned int i = 0; i < v->count; i++)
		jfree(v->items[i]);
	free(v->items);
	free(v->str);
	free(v->key);
	free(v);
}

static struct jval *jparse_container(struct jparser *jp, int depth, bool obj)
{
	struct jval *v = jnew(obj ? J_OBJ : J_ARR);
	char close = obj ? '}' : ']';

	jp->p++;
	jskip(jp);
	if (*jp->p == close) {
		jp->p++;
		return v;
	}
	for (;;) {
		struct jval *item;
		char *key = NULL;

		jskip(jp);
		if (obj) {
			key = jparse_string(jp);
			if (!key)
				goto fail;
			jskip(jp);
			if (*jp->p++ != ':') {
				jp->err = "expected ':'";
				free(key);
				goto fail;
			}
		}
		item = jparse_value(jp, depth + 1);
		if (!item) {
			free(key);
			goto fail;
		}
		item->key = key;
		jadd(v, item);
		jskip(jp);
		if (*jp->p == ',') {
			jp->p++;
			continue;
		}
		if (*jp->p == close) {
			jp->p++;
			return v;
		}
		jp->err = obj ? "expected ',' or '}'" : "expected ',' or ']'";
		goto fail;
	}
fail:
	jfree(v);
	return NULL;
}

static struct jval *jparse_value(struct jparser *jp, int depth)
{
	struct jval *v;

	if (depth > 32) {
		jp->err = "nested too deep";
		return NULL;
	}
	jskip(jp);
	switch (*jp->p) {
	case '{':
		return jparse_container(jp, depth, true);
	case '[':
		return jparse_container(jp, depth, false);
	case '"':
		v = jnew(J_STR);
		v->str = jparse_string(jp);
		if (!v->str) {
			jfree(v);
			return NULL;
		}
		return v;
	case 't':
	case 'f':
	case 'n': {
		static const char * const words[] = { "true", "false", "null" };

		for (unsigned int i = 0; i < 3; i++) {
			size_t n = strlen(words[i]);

			if (!strncmp(jp->p, words[i], n)) {
				jp->p += n;
				v = jnew(i == 2 ? J_NULL : J_BOOL);
				v->num = i == 0;
				return v;
			}
		}
		jp->err = "bad word";
		return NULL;
	}
	default: {
		const char *start = jp->p;
		char *end;

		v = jnew(J_NUM);
		if (*jp->p == '-') {
			v->negative = true;
			jp->p++;
		}
		if (*jp->p < '0' || *jp->p > '9' ||
		    (*jp->p == '0' && jp->p[1] >= '0' && jp->p[1] <= '9')) {
			jp->err = start == jp->p ? "expected a value" : "bad number";
			jfree(v);
			return NULL;
		}
		errno = 0;
		v->num = strtoull(jp->p, &end, 10);
		/* vseg-info prints integers only: anything else is a bug */
		if (errno || *end == '.' || *end == 'e' || *end == 'E') {
			jp->err = "not a 64-bit integer";
			jfree(v);
			return NULL;
		}
		jp->p = end;
		return v;
	}
	}
}

/* Parse one document from *@text (advanced past it); asserts it is valid. */
static struct jval *jparse(const char **text)
{
	struct jparser jp = { .p = *text };
	struct jval *v = jparse_value(&jp, 0);

	igt_assert_f(v, "vseg-info printed bad JSON (%s) at offset %zu:\n%.200s\n",
		     jp.err ? jp.err : "?", (size_t)(jp.p - *text), jp.p);
	jskip(&jp);
	*text = jp.p;
	return v;
}

static struct jval *jget(const struct jval *obj, const char *key)
{
	igt_assert_f(obj->type == J_OBJ, "not an object where \"%s\" is wanted\n", key);
	for (unsigned int i = 0; i < obj->count; i++)
		if (!strcmp(obj->items[i]->key, key))
			return obj->items[i];
	igt_assert_f(false, "no member \"%s\"\n", key);
	return NULL;
}

static uint64_t jnum(const struct jval *obj, const char *key)
{
	const struct jval *v = jget(obj, key);

	igt_assert_f(v->type == J_NUM && !v->negative,
		     "\"%s\" is not a nonnegative integer\n", key);
	return v->num;
}

static const char *jstr(const struct jval *obj, const char *key)
{
	const struct jval *v = jget(obj, key);

	igt_assert_f(v->type == J_STR, "\"%s\" is not a string\n", key);
	return v->str;
}

static bool jbool(const struct jval *obj, const char *key)
{
	const struct jval *v = jget(obj, key);

	igt_assert_f(v->type == J_BOOL, "\"%s\" is not true or false\n", key);
	return v->num;
}

static const struct jval *jarr(const struct jval *obj, const char *key)
{
	const struct jval *v = jget(obj, key);

	igt_assert_f(v->type == J_ARR, "\"%s\" is not an array\n", key);
	return v;
}

/* ---- checks against the query -------------------------------------------- */

#define check_num(obj, key, want) do { \
	uint64_t got__ = jnum(obj, key), want__ = (want); \
	igt_assert_f(got__ == want__, "%s: %s is %llu, the query says %llu\n", \
		     where, key, (unsigned long long)got__, \
		     (unsigned long long)want__); \
} while (0)

static void check_usage(const char *where, const struct jval *u,
			const struct drm_vseg_segment_usage *want)
{
	check_num(u, "committed", want->committed);
	check_num(u, "resident", want->resident);
	check_num(u, "evicted", want->evicted);
	check_num(u, "aperture_mapped", want->aperture_mapped);
}

static void check_segment(const struct jval *js,
			  const struct drm_vseg_segment_info *s, bool usage)
{
	char where[64], name[sizeof(s->name) + 1];
	const struct jval *a;
	unsigned int n = 0;

	memcpy(name, s->name, sizeof(s->name));
	name[sizeof(s->name)] = '\0';
	snprintf(where, sizeof(where), "segment %u", s->id);
	check_num(js, "id", s->id);
	igt_assert_f(!strcmp(jstr(js, "name"), name), "%s: name \"%s\", not \"%s\"\n",
		     where, jstr(js, "name"), name);
	igt_assert_f(!strcmp(jstr(js, "kind"),
			     s->kind == DRM_VSEG_SEGMENT_KIND_APERTURE ? "aperture" : "memory"),
		     "%s: kind \"%s\"\n", where, jstr(js, "kind"));
	check_num(js, "flags", s->flags);
	a = jarr(js, "flag_names");
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(s->flags & (1ull << bit)))
			continue;
		igt_assert_f(n < a->count && a->items[n]->type == J_STR &&
			     vseg_flag_name(bit) &&
			     !strcmp(a->items[n]->str, vseg_flag_name(bit)),
			     "%s: flag name %u is not %s\n", where, n,
			     vseg_flag_name(bit) ? vseg_flag_name(bit) : "?");
		n++;
	}
	igt_assert_f(n == a->count, "%s: %u flag names for %u flags\n", where,
		     a->count, n);
	check_num(js, "base_address", s->base_address);
	check_num(js, "cpu_translated_address", s->cpu_translated_address);
	check_num(js, "size", s->size);
	check_num(js, "cpu_visible_size", s->cpu_visible_size);
	check_num(js, "commit_limit", s->commit_limit);
	check_num(js, "system_memory_end_address", s->system_memory_end_address);
	check_num(js, "page_size", s->page_size);
	a = jarr(js, "bank_end");
	igt_assert_f(a->count == s->num_banks, "%s: %u banks, not %u\n", where,
		     a->count, s->num_banks);
	for (unsigned int k = 0; k < a->count; k++)
		igt_assert_f(a->items[k]->type == J_NUM &&
			     a->items[k]->num == s->bank_end[k],
			     "%s: bank %u ends at %llu\n", where, k,
			     (unsigned long long)a->items[k]->num);
	a = jarr(js, "invalid_ranges");
	igt_assert_f(a->count == s->num_invalid_ranges,
		     "%s: %u invalid ranges, not %u\n", where, a->count,
		     s->num_invalid_ranges);
	for (unsigned int k = 0; k < a->count; k++) {
		check_num(a->items[k], "start", s->invalid_ranges[k].start);
		check_num(a->items[k], "size", s->invalid_ranges[k].size);
	}
	if (usage)
		check_usage(where, jget(js, "usage"), &s->usage);
}

/* "addressing" as vseg-info names an engine's DRM_VSEG_ENGINE_INFO_* bits */
static const char *addressing(uint32_t flags)
{
	if (flags & DRM_VSEG_ENGINE_INFO_VIRTUAL)
		return flags & DRM_VSEG_ENGINE_INFO_PHYSICAL ? "both" : "virtual";
	return flags & DRM_VSEG_ENGINE_INFO_PHYSICAL ? "physical" : "none";
}

/* A device object's version, engines, heads and limits against DEVICE_QUERY. */
static void check_device_query(const struct jval *d, int fd, const char *where)
{
	struct drm_vseg_query_version *v;
	struct drm_vseg_query_engines *eh;
	struct drm_vseg_engine_info *e;
	struct drm_vseg_query_heads *hh;
	struct drm_vseg_head_info *hi;
	struct drm_vseg_query_limits *l;
	const struct jval *a, *o;
	uint32_t size, nheads;
	char version[64];

	igt_assert_f(jbool(d, "device_query"), "%s: device_query is false\n",
		     where);

	v = vseg_device_query(fd, DRM_VSEG_DEVICE_QUERY_VERSION, &size);
	o = jget(d, "uapi_version");
	check_num(o, "major", v->major);
	check_num(o, "minor", v->minor);
	check_num(o, "patchlevel", v->patchlevel);
	/* the same version as DRM_IOCTL_VERSION's */
	snprintf(version, sizeof(version), "%u.%u.%u", v->major, v->minor,
		 v->patchlevel);
	igt_assert_f(!strcmp(jstr(d, "version"), version),
		     "%s: version %s, DEVICE_QUERY's %s\n", where,
		     jstr(d, "version"), version);
	free(v);

	eh = vseg_device_query(fd, DRM_VSEG_DEVICE_QUERY_ENGINES, &size);
	igt_assert_lte_u64(sizeof(*e), eh->engine_size);
	e = (void *)(eh + 1);
	a = jarr(d, "engines");
	igt_assert_f(a->count == eh->num_engines, "%s: %u engines, not %u\n",
		     where, a->count, eh->num_engines);
	/* copy, render and paging, at least */
	igt_assert_lte(3, a->count);
	for (unsigned int i = 0; i < eh->num_engines; i++) {
		const struct drm_vseg_engine_info *ei =
			(const void *)((const char *)e + i * eh->engine_size);
		const struct jval *je = a->items[i];
		char name[sizeof(ei->name) + 1];

		memcpy(name, ei->name, sizeof(ei->name));
		name[sizeof(ei->name)] = '\0';
		check_num(je, "id", ei->id);
		igt_assert_f(!strcmp(jstr(je, "name"), name),
			     "%s: engine %u is \"%s\", not \"%s\"\n", where,
			     ei->id, jstr(je, "name"), name);
		check_num(je, "flags", ei->flags);
		igt_assert_f(!strcmp(jstr(je, "addressing"), addressing(ei->flags)),
			     "%s: engine %u addressing \"%s\"\n", where, ei->id,
			     jstr(je, "addressing"));
		igt_assert_eq(jbool(je, "submit"),
			      !!(ei->flags & DRM_VSEG_ENGINE_INFO_SUBMIT));
	}
	free(eh);

	hh = vseg_device_query(fd, DRM_VSEG_DEVICE_QUERY_HEADS, &size);
	igt_assert_lte_u64(sizeof(*hi), hh->head_size);
	hi = (void *)(hh + 1);
	a = jarr(d, "heads");
	igt_assert_f(a->count == hh->num_heads, "%s: %u heads, not %u\n",
		     where, a->count, hh->num_heads);
	nheads = hh->num_heads;
	for (unsigned int i = 0; i < hh->num_heads; i++) {
		const struct drm_vseg_head_info *h =
			(const void *)((const char *)hi + i * hh->head_size);

		check_num(a->items[i], "id", h->id);
		check_num(a->items[i], "flags", h->flags);
		igt_assert_eq(jbool(a->items[i], "active"),
			      !!(h->flags & DRM_VSEG_HEAD_ACTIVE));
	}
	free(hh);

	l = vseg_device_query(fd, DRM_VSEG_DEVICE_QUERY_LIMITS, &size);
	o = jget(d, "limits");
	check_num(o, "max_segments", l->max_segments);
	check_num(o, "max_banks", l->max_banks);
	check_num(o, "max_invalid_ranges", l->max_invalid_ranges);
	check_num(o, "max_preferred", l->max_preferred);
	check_num(o, "max_hinted_banks", l->max_hinted_banks);
	check_num(o, "max_residency_handles", l->max_residency_handles);
	check_num(o, "max_cmd_bytes", l->max_cmd_bytes);
	check_num(o, "max_allocations", l->max_allocations);
	check_num(o, "max_patches", l->max_patches);
	check_num(o, "max_syncs", l->max_syncs);
	check_num(o, "max_jobs_in_flight", l->max_jobs_in_flight);
	check_num(o, "max_vm_mappings", l->max_vm_mappings);
	check_num(o, "max_extensions", l->max_extensions);
	check_num(o, "num_heads", l->num_heads);
	check_num(o, "pin_limit_percent", l->pin_limit_percent);
	check_num(o, "pin_user_limit_percent", l->pin_user_limit_percent);
	check_num(o, "pin_device_limit_percent", l->pin_device_limit_percent);
	check_num(o, "sync_size_max", l->sync_size_max);
	check_num(o, "va_size", l->va_size);
	check_num(o, "va_alignment", l->va_alignment);
	igt_assert_eq_u32(l->num_heads, nheads);
	free(l);
}

/*
 * The device object of @doc for @node (asserting it is there), checked
 * against a query of @fd made now; @usage: compare the usage counters too;
 * @dq: whether the tool could use DEVICE_QUERY.
 */
static void check_device_dq(const struct jval *doc, const char *node, int fd,
			    bool usage, bool dq)
{
	const char *where = node;
	const struct jval *devs = jarr(doc, "devices"), *d = NULL, *a;
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	drmVersionPtr v;
	char version[64];

	for (unsigned int i = 0; i < devs->count; i++)
		if (!strcmp(jstr(devs->items[i], "node"), node))
			d = devs->items[i];
	igt_assert_f(d, "vseg-info did not report %s\n", node);

	v = drmGetVersion(fd);
	igt_assert(v);
	snprintf(version, sizeof(version), "%d.%d.%d", v->version_major,
		 v->version_minor, v->version_patchlevel);
	drmFreeVersion(v);
	igt_assert(!strcmp(jstr(d, "driver"), "vseg"));
	igt_assert_f(!strcmp(jstr(d, "version"), version),
		     "version %s, not %s\n", jstr(d, "version"), version);

	segs = vseg_query_all(fd, &q);
	a = jget(d, "paging_buffer");
	check_num(a, "segment_id", q.paging_buffer_segment_id);
	check_num(a, "size", q.paging_buffer_size);
	check_num(a, "private_data_size", q.paging_buffer_private_data_size);
	if (usage)
		check_usage("system", jget(d, "system_usage"), &q.system_usage);
	a = jarr(d, "segments");
	igt_assert_f(a->count == q.num_segments, "%u segments, not %u\n",
		     a->count, q.num_segments);
	for (unsigned int i = 0; i < q.num_segments; i++)
		check_segment(a->items[i], &segs[i], usage);
	free(segs);

	if (dq) {
		check_device_query(d, fd, where);
	} else {
		static const char * const keys[] = {
			"uapi_version", "engines", "heads", "limits",
		};

		igt_assert(!jbool(d, "device_query"));
		for (unsigned int i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			igt_assert_f(jget(d, keys[i])->type == J_NULL,
				     "%s: \"%s\" is not null\n", where, keys[i]);
	}
}

static void check_device(const struct jval *doc, const char *node, int fd,
			 bool usage)
{
	check_device_dq(doc, node, fd, usage, true);
}

static struct jval *run_json(const char * const *args)
{
	struct run r;
	const char *p;
	struct jval *doc;

	run_tool(&r, args);
	igt_assert_f(r.status == 0, "vseg-info exited %d:\n%s\n", r.status, r.err);
	igt_assert_f(!r.err[0], "vseg-info wrote to stderr:\n%s\n", r.err);
	p = r.out;
	doc = jparse(&p);
	igt_assert_f(!*p, "vseg-info printed more than one document\n");
	run_free(&r);
	return doc;
}

/* ---- the subtests -------------------------------------------------------- */

/* One buffer resident in each memory segment and the aperture, one evicted. */
static void place_buffers(int fd, uint32_t *handles, unsigned int *n)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs = vseg_query_all(fd, &q);

	*n = 0;
	for (unsigned int i = 0; i < q.num_segments; i++) {
		struct drm_vseg_gem_create c;

		vseg_create_args(&c, BO_SIZE, 1u << segs[i].id, 0);
		if (segs[i].kind == DRM_VSEG_SEGMENT_KIND_APERTURE)
			c.flags |= DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY;
		handles[*n] = vseg_gem_create(fd, &c);
		vseg_make_resident(fd, &handles[*n], 1);
		(*n)++;
	}
	/* evicted from the first segment: counted as evicted there */
	handles[*n] = vseg_gem_create_simple(fd, BO_SIZE,
						 vseg_system_set(fd) | 1u << segs[0].id, 0);
	vseg_make_resident(fd, &handles[*n], 1);
	vseg_evict(fd, &handles[*n], 1);
	(*n)++;
	free(segs);
}

static void test_json(void)
{
	const char *args_dev[] = { "--json", "--device", render_path, NULL };
	const char *args_find[] = { "--json", NULL };
	uint32_t handles[DRM_VSEG_MAX_SEGMENTS + 1];
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	unsigned int n, nonzero = 0;
	const struct jval *heads;
	struct jval *doc;
	uint32_t primary;

	place_buffers(card_fd, handles, &n);
	/* head 1 on, head 0 off: the JSON says which */
	primary = vseg_gem_create_simple(card_fd, BO_SIZE, VSEG_SEG_BIT(1) | vseg_system_set(card_fd),
					 DRM_VSEG_GEM_CREATE_PRIMARY);
	vseg_display_show(card_fd, 1, primary);
	segs = vseg_query_all(card_fd, &q);
	for (unsigned int i = 0; i < q.num_segments; i++)
		nonzero += segs[i].usage.committed || segs[i].usage.resident;
	free(segs);
	igt_assert_f(nonzero == q.num_segments,
		     "the buffers did not make every segment's usage nonzero\n");

	doc = run_json(args_dev);
	igt_assert_eq(jarr(doc, "devices")->count, 1);
	check_device(doc, render_path, render_fd, true);
	heads = jarr(jarr(doc, "devices")->items[0], "heads");
	igt_assert_eq(heads->count, DRM_VSEG_NUM_HEADS);
	igt_assert(!jbool(heads->items[0], "active"));
	igt_assert(jbool(heads->items[1], "active"));
	jfree(doc);

	doc = run_json(args_find);
	check_device(doc, render_path, render_fd, true);
	jfree(doc);

	/* head 1 off again: the report follows */
	vseg_display_show(card_fd, 1, 0);
	doc = run_json(args_dev);
	check_device(doc, render_path, render_fd, true);
	heads = jarr(jarr(doc, "devices")->items[0], "heads");
	igt_assert(!jbool(heads->items[1], "active"));
	jfree(doc);

	vseg_gem_close(card_fd, primary);
	for (unsigned int i = 0; i < n; i++)
		vseg_gem_close(card_fd, handles[i]);
}

static void test_json_profile(const char *profile)
{
	const char *args[] = { "--json", "--device", render_path, NULL };
	char opts[64];
	struct jval *doc;

	close_fd(&render_fd);
	close_fd(&card_fd);
	snprintf(opts, sizeof(opts), "profile=%s", profile);
	vseg_reload(opts);
	card_fd = drm_open_vseg();
	render_fd = drm_open_vseg_render();
	set_render_path();

	doc = run_json(args);
	check_device(doc, render_path, render_fd, true);
	jfree(doc);
}

/* The text's UAPI version, engines and heads against DEVICE_QUERY. */
static void check_text_device_query(const char *out)
{
	struct drm_vseg_query_version *v;
	struct drm_vseg_query_engines *eh;
	struct drm_vseg_query_heads *hh;
	char want[128];
	uint32_t size;

	v = vseg_device_query(render_fd, DRM_VSEG_DEVICE_QUERY_VERSION, &size);
	snprintf(want, sizeof(want), "  UAPI version: %u.%u.%u\n", v->major,
		 v->minor, v->patchlevel);
	igt_assert_f(strstr(out, want), "no \"%s\" in:\n%s\n", want, out);
	free(v);

	eh = vseg_device_query(render_fd, DRM_VSEG_DEVICE_QUERY_ENGINES, &size);
	for (unsigned int i = 0; i < eh->num_engines; i++) {
		const struct drm_vseg_engine_info *e =
			(const void *)((const char *)(eh + 1) + i * eh->engine_size);

		snprintf(want, sizeof(want), "    engine %u \"%.16s\": %s addressing, %s",
			 e->id, e->name, addressing(e->flags),
			 e->flags & DRM_VSEG_ENGINE_INFO_SUBMIT ?
			 "takes SUBMIT" : "kernel only");
		igt_assert_f(strstr(out, want), "no \"%s\" in:\n%s\n", want, out);
	}
	free(eh);

	hh = vseg_device_query(render_fd, DRM_VSEG_DEVICE_QUERY_HEADS, &size);
	snprintf(want, sizeof(want), "  display heads: %u,", hh->num_heads);
	igt_assert_f(strstr(out, want), "no \"%s\" in:\n%s\n", want, out);
	free(hh);
	igt_assert(strstr(out, "  limits:   "));
}

static void test_text(void)
{
	const char *args[] = { "--device", render_path, NULL };
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	struct run r;

	run_tool(&r, args);
	igt_assert_f(r.status == 0, "vseg-info exited %d:\n%s\n", r.status, r.err);
	segs = vseg_query_all(render_fd, &q);
	for (unsigned int i = 0; i < q.num_segments; i++) {
		const struct drm_vseg_segment_info *s = &segs[i];
		char want[256], flags[512] = "";
		int len = 0;

		snprintf(want, sizeof(want), "  segment %u \"%.16s\": %s, ", s->id,
			 s->name, s->kind == DRM_VSEG_SEGMENT_KIND_APERTURE ?
			 "aperture" : "memory");
		igt_assert_f(strstr(r.out, want), "no line \"%s\" in:\n%s\n",
			     want, r.out);
		len = snprintf(flags, sizeof(flags), "flags:    0x%llx (",
			       (unsigned long long)s->flags);
		for (unsigned int bit = 0; bit < 64; bit++)
			if (s->flags & (1ull << bit))
				len += snprintf(flags + len, sizeof(flags) - len,
						"%s%s", flags[len - 1] == '(' ? "" : " ",
						vseg_flag_name(bit));
		snprintf(flags + len, sizeof(flags) - len, "%s)\n",
			 s->flags ? "" : "none");
		igt_assert_f(strstr(strstr(r.out, want), flags),
			     "segment %u: no \"%s\" after its line\n", s->id, flags);
	}
	igt_assert(strstr(r.out, "segment 0 \"system\""));
	free(segs);
	check_text_device_query(r.out);
	run_free(&r);
}

/* vseg-info with DEVICE_QUERY failing with @err, as before vseg 0.4. */
static void no_device_query(int err)
{
	const char *args_json[] = { "--json", "--device", render_path, NULL };
	const char *args_text[] = { "--device", render_path, NULL };
	const char *p;
	struct jval *doc;
	struct run r;

	igt_info("DEVICE_QUERY failing with %s\n", strerror(err));
	run_tool_dq(&r, args_json, err);
	igt_assert_f(r.status != NO_FILTER, "no seccomp filter in the child\n");
	igt_assert_f(r.status == 0, "vseg-info exited %d:\n%s\n", r.status, r.err);
	igt_assert_f(strstr(r.err, "has no DRM_IOCTL_VSEG_DEVICE_QUERY"),
		     "stderr does not say DEVICE_QUERY is missing:\n%s\n", r.err);
	p = r.out;
	doc = jparse(&p);
	igt_assert_f(!*p, "vseg-info printed more than one document\n");
	/* the segment table all the same, DEVICE_QUERY's part null */
	check_device_dq(doc, render_path, render_fd, true, false);
	jfree(doc);
	run_free(&r);

	run_tool_dq(&r, args_text, err);
	igt_assert_f(r.status == 0, "vseg-info exited %d:\n%s\n", r.status, r.err);
	igt_assert(strstr(r.err, "has no DRM_IOCTL_VSEG_DEVICE_QUERY"));
	igt_assert(strstr(r.out, "segment 0 \"system\""));
	igt_assert_f(strstr(r.out, "  engines, heads, limits: not reported"),
		     "no \"not reported\" line in:\n%s\n", r.out);
	igt_assert(!strstr(r.out, "UAPI version"));
	run_free(&r);
}

static void test_no_device_query(void)
{
	/* CONFIG_SECCOMP_FILTER: the debug kernel has none */
	igt_require_f(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0,
		      "no seccomp in this kernel\n");
	no_device_query(EINVAL);
	no_device_query(ENOTTY);
}

static void test_watch(void)
{
	const char *args[] = { "--json", "--watch", "1", "--count", "2",
			       "--device", render_path, NULL };
	struct jval *doc;
	const char *p;
	struct run r;
	int docs = 0;

	run_tool(&r, args);
	igt_assert_f(r.status == 0, "vseg-info exited %d:\n%s\n", r.status, r.err);
	p = r.out;
	while (*p) {
		doc = jparse(&p);
		check_device(doc, render_path, render_fd, true);
		jfree(doc);
		docs++;
	}
	igt_assert_eq(docs, 2);
	run_free(&r);
}

static void expect_error(const char * const *args, int status, const char *msg)
{
	struct run r;

	run_tool(&r, args);
	igt_assert_f(r.status == status, "vseg-info %s ...: exit %d, not %d\n",
		     args[0], r.status, status);
	igt_assert_f(!r.out[0], "vseg-info %s ...: printed \"%s\" on stdout\n",
		     args[0], r.out);
	igt_assert_f(strstr(r.err, msg), "vseg-info %s ...: no \"%s\" in \"%s\"\n",
		     args[0], msg, r.err);
	run_free(&r);
}

static void test_errors(void)
{
	const char *null_dev[] = { "--device", "/dev/null", NULL };
	const char *null_json[] = { "--json", "--device", "/dev/null", NULL };
	const char *missing[] = { "--device", "/dev/dri/vseg-no-such-node", NULL };
	const char *watch0[] = { "--watch", "0", NULL };
	const char *watchx[] = { "--watch", "1x", NULL };
	const char *count[] = { "--count", "2", NULL };
	const char *extra[] = { "--json", "extra", NULL };
	const char *unknown[] = { "--no-such-option", NULL };

	expect_error(null_dev, 1, "/dev/null: not a DRM device");
	expect_error(null_json, 1, "/dev/null: not a DRM device");
	expect_error(missing, 1, "No such file or directory");
	expect_error(watch0, 2, "--watch");
	expect_error(watchx, 2, "--watch");
	expect_error(count, 2, "--count needs --watch");
	expect_error(extra, 2, "unexpected argument");
	expect_error(unknown, 2, "usage:");
}

/* The other process: buffers created, moved, pinned and freed, in a loop. */
static void churn(volatile bool *stop_flag)
{
	int fd = drm_open_vseg_render();
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs = vseg_query_all(fd, &q);
	uint32_t all = vseg_all_segments(&q), kept[16];
	unsigned int i = 0, nkept = 0;

	while (!*stop_flag) {
		uint32_t h, done;

		h = vseg_gem_create_simple(fd, BO_SIZE << (i % 3), all, 0);
		/* the pin may not fit this file's share: then nothing to drop */
		if (!__vseg_make_resident_flags(fd, &h, 1, i & 1 ?
						DRM_VSEG_RESIDENCY_PIN : 0, &done) &&
		    (i & 1))
			igt_assert_eq(__vseg_evict_flags(fd, &h, 1,
							 DRM_VSEG_RESIDENCY_UNPIN,
							 &done), 0);
		if (i % 4 == 2)
			vseg_evict(fd, &h, 1);
		/* every fourth buffer stays until the file closes */
		if (i % 4) {
			vseg_gem_close(fd, h);
		} else {
			if (nkept == 16) {
				vseg_gem_close(fd, kept[0]);
				memmove(kept, kept + 1, --nkept * sizeof(kept[0]));
			}
			kept[nkept++] = h;
		}
		i++;
	}
	free(segs);
	drm_close_driver(fd);
}

/* A report's usage is within each segment's limits. */
static void check_consistent(const struct jval *doc)
{
	const struct jval *segs = jarr(jarr(doc, "devices")->items[0], "segments");

	for (unsigned int i = 0; i < segs->count; i++) {
		const struct jval *s = segs->items[i], *u = jget(s, "usage");
		uint64_t size = jnum(s, "size"), limit = jnum(s, "commit_limit");

		igt_assert_lte_u64(jnum(u, "committed"), limit);
		igt_assert_lte_u64(limit, size);
		igt_assert_lte_u64(jnum(u, "resident"), size);
		igt_assert_lte_u64(jnum(u, "aperture_mapped"), size);
	}
}

static void test_hostile_client(void)
{
	const char *args[] = { "--json", "--device", render_path, NULL };
	volatile bool *stop_flag;
	struct jval *doc;

	stop_flag = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(stop_flag != MAP_FAILED);
	*stop_flag = false;

	igt_fork(child, 1)
		churn(stop_flag);

	for (int i = 0; i < 8; i++) {
		doc = run_json(args);
		igt_assert_eq(jarr(doc, "devices")->count, 1);
		/* the table itself never changes, whatever the other does */
		check_device(doc, render_path, render_fd, false);
		check_consistent(doc);
		jfree(doc);
	}
	*stop_flag = true;
	igt_waitchildren();
	munmap((void *)stop_flag, 4096);

	/* the other process is gone: its buffers with it */
	doc = run_json(args);
	check_device(doc, render_path, render_fd, true);
	jfree(doc);
}

igt_main
{
	igt_fixture {
		vseg_require_module();
		igt_require_f(find_tool(),
			      "no vseg-info ($VSEG_INFO, tools/ of the tree, $PATH)\n");
		igt_info("vseg-info: %s\n", tool);
		igt_install_exit_handler(cleanup);
		vseg_reload("profile=discrete");
		card_fd = drm_open_vseg();
		render_fd = drm_open_vseg_render();
		set_render_path();
	}

	igt_describe("With buffers resident in every segment, vseg-info --json "
		     "is well-formed JSON equal to the query, with --device and "
		     "without.");
	igt_subtest("info-json")
		test_json();

	igt_describe("The text output names every segment with its id, kind "
		     "and flags as the query returns them.");
	igt_subtest("info-text")
		test_text();

	igt_describe("Without DEVICE_QUERY (-EINVAL or -ENOTTY, as before "
		     "vseg 0.4), vseg-info prints the segment table, a note and "
		     "null engines, heads and limits, and exits 0.");
	igt_subtest("info-no-device-query")
		test_no_device_query();

	igt_describe("--json --watch 1 --count 2 prints two documents, each "
		     "equal to the query.");
	igt_subtest("info-watch")
		test_watch();

	igt_describe("Non-DRM and missing nodes and bad arguments give a clean "
		     "error and exit status 1 or 2.");
	igt_subtest("info-errors")
		test_errors();

	igt_describe("Reports stay well-formed and consistent while another "
		     "process churns buffers, and equal the query once it is "
		     "gone.");
	igt_subtest("info-hostile-client")
		test_hostile_client();

	igt_describe("The JSON of each built-in profile's table equals the "
		     "query.");
	igt_subtest_with_dynamic("info-json-profiles")
		vseg_dynamic_profiles(test_json_profile);

	igt_fixture {
		close_fd(&render_fd);
		close_fd(&card_fd);
		vseg_unload();
	}
}
