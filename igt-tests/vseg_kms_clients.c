// SPDX-License-Identifier: MIT
/*
 * vseg_kms_clients: KMS clients nobody here wrote, on vseg.
 *
 * libdrm's modetest, vbltest and proptest (Debian's libdrm-tests) and
 * drm_info (Debian's drm-info) run against vseg's heads, each checked for
 * what it printed and for what the driver then shows (debugfs display,
 * property values read back through libdrm), not only for its exit
 * status. A second, unprivileged client run while the test holds the DRM
 * master must fail to set a mode or a property and change nothing.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg kms clients
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Display
 * Functionality: kms
 * Description: Run libdrm's modetest, vbltest and proptest and drm_info on
 *	vseg and check what they print and what the heads then show.
 *
 * SUBTEST: drm-info
 * Description: drm_info names the vseg driver and lists both heads'
 *	virtual connectors (connected, 1024x768 at 60 Hz among their modes),
 *	both CRTCs, the primary planes' XRGB8888, ARGB8888 and RGB565
 *	formats and cursor planes (none where the display controller has no
 *	cursor registers: QEMU's Bochs adapter).
 *
 * SUBTEST: modetest-list
 * Description: modetest -c and -p list the connectors, CRTCs and planes
 *	libdrm reports, connected, with the 1024x768 mode and the primary
 *	planes' formats.
 *
 * SUBTEST: modetest-set
 * Description: modetest sets 1024x768 on head 0 with its test pattern,
 *	legacy and atomic: debugfs display shows a KMS head of 1024x768
 *	XRGB8888 at a pitch of 4096 bytes while modetest runs, and the head is
 *	off again once modetest has exited.
 *
 * SUBTEST: modetest-flip
 * Description: modetest -v flips on head 0 and reports a flip rate no
 *	higher than the mode's 60 Hz (plus 10%) and not below a third of it
 *	(the emulator's margin).
 *
 * SUBTEST: vbltest
 * Description: While modetest holds a mode on head 0, vbltest (a client
 *	that is not the master) counts vblanks and reports their rate: at
 *	most the mode's 60 Hz plus 10%, at least a third of it.
 *
 * SUBTEST: proptest
 * Description: proptest lists the connectors', CRTCs' and planes' atomic
 *	properties, and sets a connector's DPMS off and on again: the value
 *	read back through libdrm follows.
 *
 * SUBTEST: hostile-client
 * Description: While the test holds the DRM master, an unprivileged
 *	client's modetest cannot set a mode and its proptest cannot set DPMS:
 *	the head stays off and the property keeps its value.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "drmtest.h"
#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_ctx.h"
#include "igt_vseg_display.h"

IGT_TEST_DESCRIPTION("Run libdrm's modetest, vbltest and proptest and drm_info on vseg.");

#define W		1024
#define H		768
#define RATE		60
/* The heads' preferred mode, as the tools name it. */
#define MODE_NAME	"1024x768"
/* How long a tool may take to print what is waited for (TCG is slow). */
#define TOOL_MS		60000

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_BASE_COUNT);

/**
 * struct tool - a client program run by the test
 * @pid: its process.
 * @in: the write end of its standard input.
 * @out: the read end of its standard output and error.
 * @text: what it printed so far, NUL-terminated.
 * @len: bytes of @text.
 */
struct tool {
	pid_t pid;
	int in;
	int out;
	char text[1 << 18];
	size_t len;
};

static struct tool tool_a, tool_b;

/* A failed subtest leaves its tools running: end them before the next. */
static void tools_kill(void)
{
	struct tool *all[] = { &tool_a, &tool_b };

	for (unsigned int i = 0; i < ARRAY_SIZE(all); i++) {
		if (all[i]->pid <= 0)
			continue;
		kill(all[i]->pid, SIGKILL);
		waitpid(all[i]->pid, NULL, 0);
		all[i]->pid = 0;
	}
}

static bool have(const char *prog)
{
	char path[64];

	snprintf(path, sizeof(path), "/usr/bin/%s", prog);
	return access(path, X_OK) == 0;
}

/*
 * Start @argv with pipes for its input and output; as uid/gid 65534 when
 * @unprivileged.
 */
static void tool_start(struct tool *t, bool unprivileged, char *const argv[])
{
	int in[2], out[2];
	char cmd[256] = "";

	igt_require_f(have(argv[0]), "%s is not installed\n", argv[0]);
	igt_require_f(have("stdbuf"), "stdbuf is not installed\n");
	for (unsigned int i = 0; argv[i]; i++) {
		strncat(cmd, argv[i], sizeof(cmd) - strlen(cmd) - 2);
		strcat(cmd, " ");
	}
	igt_info("running: %s%s\n", cmd, unprivileged ? "(uid 65534)" : "");
	igt_assert(pipe(in) == 0 && pipe(out) == 0);
	t->len = 0;
	t->text[0] = '\0';
	t->pid = fork();
	igt_assert(t->pid >= 0);
	if (!t->pid) {
		char *lined[16] = { "stdbuf", "-oL", "-eL" };
		unsigned int n = 3;

		/* line by line through the pipe: the test waits on lines */
		while (argv[n - 3] && n < ARRAY_SIZE(lined) - 1) {
			lined[n] = argv[n - 3];
			n++;
		}
		lined[n] = NULL;
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(in[1]);
		close(out[0]);
		if (unprivileged &&
		    (setresgid(65534, 65534, 65534) ||
		     setresuid(65534, 65534, 65534)))
			_exit(126);
		execv("/usr/bin/stdbuf", lined);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	t->in = in[1];
	t->out = out[0];
}

/* Read what @t prints for up to @ms; false at its end of output. */
static bool tool_read(struct tool *t, int ms)
{
	struct pollfd p = { .fd = t->out, .events = POLLIN };
	ssize_t n;

	if (t->out < 0 || poll(&p, 1, ms) <= 0)
		return t->out >= 0;
	n = read(t->out, t->text + t->len, sizeof(t->text) - 1 - t->len);
	if (n <= 0) {
		close(t->out);
		t->out = -1;
		return false;
	}
	t->len += n;
	t->text[t->len] = '\0';
	return true;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

/* Wait until @t has printed @count lines holding @needle; the last one. */
static const char *tool_wait_for(struct tool *t, const char *needle,
				 unsigned int count)
{
	uint64_t end = now_ms() + TOOL_MS;
	const char *at, *last;
	unsigned int n;

	for (;;) {
		n = 0;
		last = NULL;
		for (at = strstr(t->text, needle); at;
		     at = strstr(at + 1, needle)) {
			if (strchr(at, '\n')) {
				n++;
				last = at;
			}
		}
		if (n >= count)
			return last;
		igt_assert_f(now_ms() < end && tool_read(t, 100),
			     "%u lines of \"%s\" expected, %u printed:\n%s\n",
			     count, needle, n, t->text);
	}
}

/*
 * Tell @t to end (a line on its input, which each tool waits for, then
 * its input closed), read the rest and reap it; its exit status.
 */
static int tool_finish(struct tool *t)
{
	uint64_t end = now_ms() + TOOL_MS;
	int status;

	if (t->in >= 0) {
		igt_assert_eq(write(t->in, "\n", 1), 1);
		close(t->in);
		t->in = -1;
	}
	while (tool_read(t, 100)) {
		if (now_ms() > end) {
			kill(t->pid, SIGKILL);
			break;
		}
	}
	igt_assert_eq(waitpid(t->pid, &status, 0), t->pid);
	t->pid = 0;
	igt_info("it printed:\n%s\n", t->text);
	igt_assert_f(WIFEXITED(status), "the client was killed (signal %d)\n",
		     WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return WEXITSTATUS(status);
}

/* Run @argv to its end (nothing on its input); its exit status. */
static int tool_run(struct tool *t, bool unprivileged, char *const argv[])
{
	tool_start(t, unprivileged, argv);
	close(t->in);
	t->in = -1;
	return tool_finish(t);
}

/* Lines of @text holding @needle. */
static unsigned int count_lines(const char *text, const char *needle)
{
	unsigned int n = 0;

	for (const char *at = strstr(text, needle); at;
	     at = strstr(at + 1, needle))
		n++;
	return n;
}

/**
 * struct heads - what libdrm reports of the heads
 * @crtc: CRTC ids, in the order of the resources.
 * @conn: connector ids.
 * @plane: plane ids.
 * @num_planes: entries of @plane.
 */
static struct heads {
	uint32_t crtc[DRM_VSEG_NUM_HEADS];
	uint32_t conn[DRM_VSEG_NUM_HEADS];
	uint32_t plane[4 * DRM_VSEG_NUM_HEADS];
	unsigned int num_planes;
} heads;

static void heads_init(void)
{
	drmModePlaneResPtr pres;
	drmModeResPtr res;

	igt_assert_eq(drmSetClientCap(ctx.fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES,
				      1), 0);
	res = drmModeGetResources(ctx.fd);
	igt_assert(res);
	igt_assert_eq(res->count_crtcs, DRM_VSEG_NUM_HEADS);
	igt_assert_eq(res->count_connectors, DRM_VSEG_NUM_HEADS);
	for (unsigned int i = 0; i < DRM_VSEG_NUM_HEADS; i++) {
		drmModeConnectorPtr c;

		heads.crtc[i] = res->crtcs[i];
		heads.conn[i] = res->connectors[i];
		/*
		 * Probed by the master, as a display server does first: a
		 * client that is not the master only reads what was probed.
		 */
		c = drmModeGetConnector(ctx.fd, heads.conn[i]);
		igt_assert(c);
		igt_assert_eq(c->connection, DRM_MODE_CONNECTED);
		igt_assert_lt(0, c->count_modes);
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	pres = drmModeGetPlaneResources(ctx.fd);
	igt_assert(pres);
	igt_assert_lte(pres->count_planes, ARRAY_SIZE(heads.plane));
	heads.num_planes = pres->count_planes;
	for (unsigned int i = 0; i < pres->count_planes; i++)
		heads.plane[i] = pres->planes[i];
	drmModeFreePlaneResources(pres);
}

/* The card node of the device under test, for tools given a path. */
static void card_path(char *path, size_t size)
{
	char *name = drmGetDeviceNameFromFd2(ctx.fd);

	igt_assert(name);
	snprintf(path, size, "%s", name);
	free(name);
}

static struct vseg_display_head head(uint32_t i)
{
	struct vseg_display d;

	vseg_debugfs_read_display(ctx.fd, &d);
	return d.head[i];
}

static void check_head_off(uint32_t i, const char *when)
{
	struct vseg_display_head h = head(i);

	igt_assert_f(!h.on && !h.has_scanout,
		     "head %u should be off %s; it shows buffer %llu\n", i,
		     when, (unsigned long long)h.buffer_id);
}

/* Wait until head @i shows a KMS framebuffer of 1024x768 XRGB8888. */
static void wait_head_on(uint32_t i)
{
	uint64_t end = now_ms() + TOOL_MS;
	struct vseg_display_head h;

	do {
		h = head(i);
		if (h.on && h.kms)
			break;
		usleep(20000);
	} while (now_ms() < end);
	igt_assert_f(h.on && h.kms && h.has_scanout && h.has_format,
		     "head %u: no KMS framebuffer shown\n", i);
	igt_assert_eq_u32(h.width, W);
	igt_assert_eq_u32(h.height, H);
	igt_assert_eq_u32(h.pitch, W * 4);
	igt_assert_eq_u32(h.format, DRM_FORMAT_XRGB8888);
}

/* Let tools become the master: the test's file gives it up. */
static void drop_master(void)
{
	if (drmIsMaster(ctx.fd))
		igt_assert_eq(drmDropMaster(ctx.fd), 0);
}

/* "-s <connector>@<crtc>:1024x768" for head @i, in @buf. */
static char *set_arg(char *buf, size_t size, uint32_t i)
{
	snprintf(buf, size, "%u@%u:" MODE_NAME, heads.conn[i], heads.crtc[i]);
	return buf;
}

/* The number after @prefix on the line @at points into. */
static double number_after(const char *at, const char *prefix)
{
	const char *p = strstr(at, prefix);

	igt_assert(p);
	return strtod(p + strlen(prefix), NULL);
}

static void check_rate(double hz, const char *what)
{
	igt_info("%s: %.2f Hz (mode: %d Hz)\n", what, hz, RATE);
	igt_assert_f(hz <= RATE * 1.1,
		     "%s: %.2f Hz, more than the mode's %d Hz\n", what, hz,
		     RATE);
	igt_assert_f(hz >= RATE / 3.0, "%s: %.2f Hz, below a third of %d Hz\n",
		     what, hz, RATE);
}

/* --- drm_info ---------------------------------------------------------- */

static void test_drm_info(void)
{
	char path[64];
	char *argv[] = { "drm_info", path, NULL };
	const char *t = tool_a.text;

	card_path(path, sizeof(path));
	igt_assert_eq(tool_run(&tool_a, false, argv), 0);
	igt_assert_f(strstr(t, "Driver: vseg"), "no \"Driver: vseg\"\n");
	igt_assert_eq(count_lines(t, "Type: virtual"), 2 * DRM_VSEG_NUM_HEADS);
	igt_assert_eq(count_lines(t, "Status: connected"), DRM_VSEG_NUM_HEADS);
	igt_assert_lte(DRM_VSEG_NUM_HEADS, count_lines(t, MODE_NAME "@60"));
	igt_assert_lte(DRM_VSEG_NUM_HEADS, count_lines(t, "XRGB8888"));
	igt_assert_lte(DRM_VSEG_NUM_HEADS, count_lines(t, "ARGB8888"));
	igt_assert_lte(DRM_VSEG_NUM_HEADS, count_lines(t, "RGB565"));
	for (unsigned int i = 0; i < DRM_VSEG_NUM_HEADS; i++) {
		char crtc[32];

		snprintf(crtc, sizeof(crtc), "CRTC %u", i);
		igt_assert_f(strstr(t, crtc), "no \"%s\"\n", crtc);
	}
	/*
	 * Cursor planes where the display controller has cursor registers
	 * (a plane's type line: "enum {Overlay, Primary, Cursor} = Cursor").
	 */
	if (vseg_display_has_cursor(ctx.fd))
		igt_assert_f(strstr(t, "} = Cursor"), "no cursor plane listed\n");
	else
		igt_assert_f(!strstr(t, "} = Cursor"),
			     "a cursor plane listed without cursor registers\n");
	igt_assert_f(strstr(t, "Primary"), "no primary plane listed\n");
}

/* --- modetest ---------------------------------------------------------- */

static void test_modetest_list(void)
{
	char *argv[] = { "modetest", "-M", "vseg", "-c", "-p", NULL };
	const char *t = tool_a.text;
	char id[32];

	drop_master();
	igt_assert_eq(tool_run(&tool_a, false, argv), 0);
	for (unsigned int i = 0; i < DRM_VSEG_NUM_HEADS; i++) {
		/* a connector's row: its id, its encoder, "connected" */
		snprintf(id, sizeof(id), "\n%u\t", heads.conn[i]);
		igt_assert_f(strstr(t, id), "connector %u not listed\n",
			     heads.conn[i]);
		snprintf(id, sizeof(id), "\n%u\t", heads.crtc[i]);
		igt_assert_f(strstr(t, id), "CRTC %u not listed\n",
			     heads.crtc[i]);
	}
	for (unsigned int i = 0; i < heads.num_planes; i++) {
		snprintf(id, sizeof(id), "\n%u\t", heads.plane[i]);
		igt_assert_f(strstr(t, id), "plane %u not listed\n",
			     heads.plane[i]);
	}
	igt_assert_eq(count_lines(t, "\tconnected\t"), DRM_VSEG_NUM_HEADS);
	igt_assert_lte(DRM_VSEG_NUM_HEADS, count_lines(t, MODE_NAME " 60"));
	/* each primary plane's "formats:" line */
	igt_assert_lte(DRM_VSEG_NUM_HEADS, count_lines(t, "XR24"));
	igt_assert_lte(DRM_VSEG_NUM_HEADS, count_lines(t, "RG16"));
	/* and the cursors', where the display controller has a cursor */
	igt_assert_lte((vseg_display_has_cursor(ctx.fd) ? 2 : 1) *
		       DRM_VSEG_NUM_HEADS, count_lines(t, "AR24"));
}

static void test_modetest_flip(void)
{
	char s[48];
	char *argv[] = { "modetest", "-M", "vseg", "-v", "-s",
			 set_arg(s, sizeof(s), 0), NULL };
	const char *at;

	drop_master();
	tool_start(&tool_a, false, argv);
	/* the first rate counts from before the first flip: take the third */
	at = tool_wait_for(&tool_a, "freq: ", 3);
	wait_head_on(0);
	check_rate(number_after(at, "freq: "), "modetest's flips");
	igt_assert_eq(tool_finish(&tool_a), 0);
	check_head_off(0, "after modetest exited");
}

/* --- vbltest ----------------------------------------------------------- */

static void test_vbltest(void)
{
	char s[48];
	char *set[] = { "modetest", "-M", "vseg", "-s",
			set_arg(s, sizeof(s), 0), NULL };
	char *vbl[] = { "vbltest", "-M", "vseg", NULL };
	const char *at;

	drop_master();
	tool_start(&tool_a, false, set);
	tool_wait_for(&tool_a, "setting mode " MODE_NAME, 1);
	wait_head_on(0);

	tool_start(&tool_b, false, vbl);
	at = tool_wait_for(&tool_b, "freq: ", 2);
	check_rate(number_after(at, "freq: "), "vbltest's vblanks");
	igt_assert_eq(tool_finish(&tool_b), 0);

	igt_assert_eq(tool_finish(&tool_a), 0);
	check_head_off(0, "after modetest exited");
}

/* --- proptest ---------------------------------------------------------- */

static uint32_t prop_id(uint32_t obj, uint32_t type, const char *name,
			uint64_t *value)
{
	return vseg_kms_prop_get(ctx.fd, obj, type, name, value);
}

static uint64_t dpms(uint32_t conn)
{
	uint64_t v;

	prop_id(conn, DRM_MODE_OBJECT_CONNECTOR, "DPMS", &v);
	return v;
}

/* The primary plane of CRTC @i. */
static uint32_t primary_of(uint32_t i)
{
	uint32_t id = 0;
	uint64_t type;

	for (unsigned int p = 0; p < heads.num_planes && !id; p++) {
		drmModePlanePtr plane = drmModeGetPlane(ctx.fd, heads.plane[p]);

		igt_assert(plane);
		prop_id(heads.plane[p], DRM_MODE_OBJECT_PLANE, "type", &type);
		if (type == DRM_PLANE_TYPE_PRIMARY &&
		    (plane->possible_crtcs & (1u << i)))
			id = heads.plane[p];
		drmModeFreePlane(plane);
	}
	igt_assert_f(id, "CRTC %u has no primary plane\n", heads.crtc[i]);
	return id;
}

/* modetest sets head 0, legacy or atomic (a mode and a plane then). */
static void modetest_set(bool atomic)
{
	char s[48], p[64];
	char *legacy[] = { "modetest", "-M", "vseg", "-s",
			   set_arg(s, sizeof(s), 0), NULL };
	char *with_atomic[] = { "modetest", "-M", "vseg", "-a", "-s", s,
				"-P", p, NULL };

	snprintf(p, sizeof(p), "%u@%u:" MODE_NAME "@XR24", primary_of(0),
		 heads.crtc[0]);
	tool_start(&tool_a, false, atomic ? with_atomic : legacy);
	tool_wait_for(&tool_a, atomic ? "testing " MODE_NAME "@XR24" :
			       "setting mode " MODE_NAME, 1);
	wait_head_on(0);
	check_head_off(1, "while head 0 is set");
	igt_assert_eq(tool_finish(&tool_a), 0);
	/* its framebuffers went with its file */
	check_head_off(0, "after modetest exited");
}

static void test_modetest_set(void)
{
	drop_master();
	check_head_off(0, "before modetest");
	modetest_set(false);
	modetest_set(true);
}

/* proptest sets connector @conn's DPMS to @value; its exit status. */
static int proptest_dpms(struct tool *t, bool unprivileged, uint32_t conn,
			 uint64_t value)
{
	char obj[16], prop[16], val[16];
	char *argv[] = { "proptest", "-M", "vseg", obj, "connector", prop,
			 val, NULL };
	uint64_t v;

	snprintf(obj, sizeof(obj), "%u", conn);
	snprintf(prop, sizeof(prop), "%u",
		 prop_id(conn, DRM_MODE_OBJECT_CONNECTOR, "DPMS", &v));
	snprintf(val, sizeof(val), "%llu", (unsigned long long)value);
	return tool_run(t, unprivileged, argv);
}

static void test_proptest(void)
{
	/* a legacy client's: it asks for no atomic or universal planes */
	static const char *const names[] = {
		"DPMS", "link-status", "non-desktop", "TILE", "VRR_ENABLED",
	};
	char *argv[] = { "proptest", "-M", "vseg", NULL };
	const char *t = tool_a.text;
	char line[48];

	drop_master();
	igt_assert_eq(tool_run(&tool_a, false, argv), 0);
	for (unsigned int i = 0; i < DRM_VSEG_NUM_HEADS; i++) {
		snprintf(line, sizeof(line), "Connector %u", heads.conn[i]);
		igt_assert_f(strstr(t, line), "no \"%s\"\n", line);
		snprintf(line, sizeof(line), "CRTC %u", heads.crtc[i]);
		igt_assert_f(strstr(t, line), "no \"%s\"\n", line);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(line, sizeof(line), " %s:\n", names[i]);
		igt_assert_f(strstr(t, line), "property %s not listed\n",
			     names[i]);
	}

	/* DPMS off and on again on head 1's connector, read back */
	igt_assert_eq_u64(dpms(heads.conn[1]), DRM_MODE_DPMS_ON);
	igt_assert_eq(proptest_dpms(&tool_a, false, heads.conn[1],
				    DRM_MODE_DPMS_OFF), 0);
	igt_assert_eq_u64(dpms(heads.conn[1]), DRM_MODE_DPMS_OFF);
	igt_assert_eq(proptest_dpms(&tool_a, false, heads.conn[1],
				    DRM_MODE_DPMS_ON), 0);
	igt_assert_eq_u64(dpms(heads.conn[1]), DRM_MODE_DPMS_ON);
}

/* --- another, unprivileged client ---------------------------------------- */

static void test_hostile_client(void)
{
	char path[64], s[48];
	char *set[] = { "modetest", "-M", "vseg", "-s",
			set_arg(s, sizeof(s), 0), NULL };
	struct stat st;

	card_path(path, sizeof(path));
	/* the test keeps the master; the device node lets anyone open it */
	if (!drmIsMaster(ctx.fd))
		igt_assert_eq(drmSetMaster(ctx.fd), 0);
	igt_assert_eq(stat(path, &st), 0);
	igt_assert_eq(chmod(path, 0666), 0);

	tool_start(&tool_a, true, set);
	/* it cannot set the mode: it says so, or it cannot even start */
	tool_finish(&tool_a);
	igt_assert_f(!strstr(tool_a.text, "setting mode") ||
		     strstr(tool_a.text, "failed to set mode"),
		     "an unprivileged client that is not the master set a mode\n");
	check_head_off(0, "after a client that is not the master tried");

	igt_assert_eq_u64(dpms(heads.conn[0]), DRM_MODE_DPMS_ON);
	proptest_dpms(&tool_b, true, heads.conn[0], DRM_MODE_DPMS_OFF);
	igt_assert_eq_u64(dpms(heads.conn[0]), DRM_MODE_DPMS_ON);

	igt_assert_eq(chmod(path, st.st_mode & 07777), 0);
}

static const struct vseg_subtest tests[] = {
	{ "drm-info", test_drm_info,
	  "drm_info lists the driver, both heads, formats and planes." },
	{ "modetest-list", test_modetest_list,
	  "modetest lists the connectors, CRTCs and planes libdrm reports." },
	{ "modetest-set", test_modetest_set,
	  "modetest sets 1024x768 on head 0, legacy and atomic." },
	{ "modetest-flip", test_modetest_flip,
	  "modetest flips at no more than the mode's rate." },
	{ "vbltest", test_vbltest,
	  "vbltest counts vblanks at about the mode's rate." },
	{ "proptest", test_proptest,
	  "proptest lists the properties and sets DPMS." },
	{ "hostile-client", test_hostile_client,
	  "An unprivileged client that is not the master changes nothing." },
};

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		ctx.before_load = tools_kill;
		ctx.on_load = heads_init;
	}

	vseg_ctx_subtests(&ctx, "discrete", tests, ARRAY_SIZE(tests),
			  "after the clients exited");
	igt_fixture
		tools_kill();

	igt_fixture
		vseg_ctx_unload(&ctx);
}
