// SPDX-License-Identifier: MIT
/*
 * vseg_query: DRM_IOCTL_VSEG_QUERY_SEGMENTS, the segment table query;
 * DRM_IOCTL_VSEG_DEVICE_QUERY; extension chains (GEM_CREATE's label).
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg query
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: segment query
 * Description: Check the vseg segment table query: the two-call protocol, the
 *	table of every built-in profile, and the rejection of bad arguments;
 *	the device query and extension chains.
 *
 * SUBTEST: query-count
 * Description: The count call returns the number of segments, the element
 *	size and the paging buffer; the fill call with that count and size
 *	fills the table.
 *
 * SUBTEST: query-usage-zero
 * Description: Usage counters are zero while no buffer exists.
 *
 * SUBTEST: query-short-buffer
 * Description: An array smaller than the table is refused with EINVAL and
 *	left untouched.
 *
 * SUBTEST: query-larger-buffer
 * Description: An array larger than the table is accepted; the count is
 *	written back and the extra entries are untouched.
 *
 * SUBTEST: query-invalid-mbz
 * Description: Nonzero extensions, flags, padding or reserved fields are
 *	refused with EINVAL.
 *
 * SUBTEST: query-invalid-segment-size
 * Description: On the fill call, a segment_size below the first version's
 *	is refused with EINVAL, one above DRM_VSEG_SEGMENT_INFO_SIZE_MAX with
 *	E2BIG, and the array is left untouched.
 *
 * SUBTEST: query-stride
 * Description: The fill call takes the caller's element size as the stride
 *	of its array: at the first version's size, the kernel's, and larger
 *	(odd ones included), each element is at its stride, holds the kernel's
 *	structure followed by zeroes, and nothing outside the elements of the
 *	table is written.
 *
 * SUBTEST: query-stride-hostile
 * Description: Strides and counts that would reach far beyond the array, or
 *	wrap around the address space, are refused (E2BIG, EFAULT) or write
 *	only the table's elements: guard bytes around the array stay intact.
 *
 * SUBTEST: query-null-array
 * Description: A count without an array is refused with EINVAL.
 *
 * SUBTEST: query-bad-pointer
 * Description: Unwritable arrays and a bad argument pointer give EFAULT.
 *
 * SUBTEST: query-render-node
 * Description: The query works on the render node and returns the same table.
 *
 * SUBTEST: device-query-version
 * Description: DEVICE_QUERY's version is DRM_IOCTL_VERSION's, 0.4 or later.
 *
 * SUBTEST: device-query-segments
 * Description: DEVICE_QUERY's segment table is QUERY_SEGMENTS' table, with
 *	the same paging buffer and system usage.
 *
 * SUBTEST: device-query-engines
 * Description: DEVICE_QUERY lists the copy, render and paging engines with
 *	their addressing and whether SUBMIT takes them.
 *
 * SUBTEST: device-query-heads
 * Description: DEVICE_QUERY shows which heads are on, to the DRM master and
 *	to a render-node client alike, following KMS.
 *
 * SUBTEST: device-query-limits
 * Description: DEVICE_QUERY's limits are the header's constants and the
 *	module's pin limit.
 *
 * SUBTEST: device-query-sizes
 * Description: For every query, the size call gives the result's size; a
 *	shorter buffer gets a truncated result, a longer one zeroes after the
 *	result, nothing past the buffer is written, and a size above the
 *	limit is refused with E2BIG.
 *
 * SUBTEST: device-query-invalid
 * Description: Unknown query ids and nonzero extensions, flags, padding or
 *	reserved fields are refused with EINVAL.
 *
 * SUBTEST: device-query-bad-pointer
 * Description: Unwritable result pointers give EFAULT and leave the size as
 *	it was; the size call reads no pointer.
 *
 * SUBTEST: device-query-render-node
 * Description: Every query works the same on the render node.
 *
 * SUBTEST: extension-label
 * Description: GEM_CREATE's label extension names the buffer in debugfs;
 *	without it the buffer has no label.
 *
 * SUBTEST: extension-invalid
 * Description: Bad labels, unknown names, nonzero padding, a name twice,
 *	loops and chains longer than DRM_VSEG_MAX_EXTENSIONS, and unreadable
 *	links are refused (EINVAL, E2BIG, EFAULT) and create nothing; other
 *	ioctls take no extension.
 *
 * SUBTEST: extension-hostile
 * Description: A second client's refused and accepted chains do not touch
 *	the first client's labelled buffer.
 *
 * SUBTEST: query-table
 * Description: The table of each built-in profile obeys the rules, has no
 *	usage and reads the same on every query and node. Dynamic subtests:
 *	one per built-in profile, named after it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Check the vseg segment table query: the two-call "
		     "protocol, the table of every built-in profile, and "
		     "the rejection of bad arguments.");

#define INFO_SIZE sizeof(struct drm_vseg_segment_info)
#define POISON 0xa5

/* File descriptors the exit handler closes before it unloads vseg. */
static int card_fd = -1;
static int profile_fd = -1;
static int render_fd = -1;

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
	close_fd(&profile_fd);
	close_fd(&card_fd);
	if (igt_kmod_is_loaded(VSEG_MODULE))
		igt_kmod_unload(VSEG_MODULE);
}

static bool all_bytes(const void *p, int byte, size_t len)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < len; i++)
		if (c[i] != byte)
			return false;
	return true;
}

static struct drm_vseg_segment_info *poisoned_array(unsigned int n)
{
	struct drm_vseg_segment_info *a = malloc(n * INFO_SIZE);

	igt_assert(a);
	memset(a, POISON, n * INFO_SIZE);
	return a;
}

/* The ioctl fails with @err, leaving @q and the array untouched. */
static void query_fails(int fd, struct drm_vseg_query_segments *q, int err,
			const void *array, size_t array_len, const char *what)
{
	struct drm_vseg_query_segments before = *q;
	int ret;

	ret = __vseg_query_segments(fd, q);
	igt_assert_f(ret == -err, "%s: query returned %d (%s), expected %d (%s)\n",
		     what, ret, strerror(-ret), -err, strerror(err));
	igt_assert_f(!memcmp(&before, q, sizeof(before)),
		     "%s: the failed query modified its argument\n", what);
	if (array)
		igt_assert_f(all_bytes(array, POISON, array_len),
			     "%s: the failed query wrote to the array\n", what);
}

static void test_query_count(int fd)
{
	struct drm_vseg_query_segments q, q2;
	struct drm_vseg_segment_info *segs;

	memset(&q, 0, sizeof(q));
	do_ioctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, &q);
	igt_assert_lte(1, q.num_segments);
	igt_assert_lte(q.num_segments, DRM_VSEG_MAX_SEGMENTS);
	igt_assert_eq_u32(q.segment_size, INFO_SIZE);
	igt_assert_eq_u64(q.segments, 0);
	igt_assert_lte(q.paging_buffer_segment_id, q.num_segments);
	igt_assert_eq_u64(q.extensions, 0);
	igt_assert_eq_u32(q.flags, 0);
	igt_assert_eq_u32(q.pad, 0);
	igt_assert_eq_u32(q.pad2, 0);

	/* The count call is repeatable. */
	memset(&q2, 0, sizeof(q2));
	do_ioctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, &q2);
	igt_assert(!memcmp(&q, &q2, sizeof(q)));

	/* The fill call with exactly the count and the returned size. */
	segs = poisoned_array(q.num_segments);
	memset(&q2, 0, sizeof(q2));
	q2.num_segments = q.num_segments;
	q2.segment_size = q.segment_size;
	q2.segments = (uintptr_t)segs;
	do_ioctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, &q2);
	igt_assert_eq_u32(q2.num_segments, q.num_segments);
	igt_assert_eq_u32(q2.segment_size, INFO_SIZE);
	igt_assert_eq_u64(q2.segments, (uintptr_t)segs);
	igt_assert_eq_u32(q2.paging_buffer_segment_id,
			  q.paging_buffer_segment_id);
	igt_assert_eq_u32(q2.paging_buffer_size, q.paging_buffer_size);
	igt_assert_eq_u32(q2.paging_buffer_private_data_size,
			  q.paging_buffer_private_data_size);
	for (unsigned int i = 0; i < q2.num_segments; i++)
		igt_assert_eq_u32(segs[i].id, i + 1);
	vseg_check_table_rules(&q2, segs);
	free(segs);
}

/*
 * The table of each profile as the query returns it: it obeys the rules,
 * has no usage yet, and two queries, on the card and the render node,
 * return it identically. What each profile holds is vseg_module's
 * "profiles".
 */
static void test_query_table(const char *profile)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	struct vseg_table first, again;
	char opts[64];

	close_fd(&profile_fd);
	snprintf(opts, sizeof(opts), "profile=%s", profile);
	vseg_reload(opts);
	profile_fd = drm_open_vseg();

	segs = vseg_query_all(profile_fd, &q);
	vseg_check_table_rules(&q, segs);
	vseg_check_usage_zero(&q, segs);
	vseg_table_from_query(&first, &q, segs);
	free(segs);

	vseg_table_query(profile_fd, &again);
	igt_assert_f(!memcmp(&first, &again, sizeof(first)),
		     "two queries returned different tables\n");
	close_fd(&render_fd);
	render_fd = __drm_open_vseg_render();
	igt_assert_f(render_fd >= 0, "vseg has no render node\n");
	segs = vseg_query_all(render_fd, &q);
	vseg_check_table(&first, &q, segs);
	free(segs);

	close_fd(&render_fd);
	close_fd(&profile_fd);
	vseg_unload();
}

static void test_usage_zero(int fd)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;

	vseg_query_count(fd, &q);
	for (unsigned int r = 0; r < 4; r++)
		igt_assert_eq_u64(q.system_usage.reserved[r], 0);
	igt_assert_eq_u64(q.system_usage.committed, 0);
	igt_assert_eq_u64(q.system_usage.resident, 0);
	igt_assert_eq_u64(q.system_usage.evicted, 0);
	igt_assert_eq_u64(q.system_usage.aperture_mapped, 0);

	segs = vseg_query_all(fd, &q);
	vseg_check_usage_zero(&q, segs);
	free(segs);
}

static void test_short_buffer(int fd)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	unsigned int n;

	vseg_query_count(fd, &q);
	n = q.num_segments;
	igt_require(n >= 2);
	segs = poisoned_array(n);

	for (unsigned int cap = 1; cap < n; cap++) {
		memset(&q, 0, sizeof(q));
		q.num_segments = cap;
		q.segment_size = INFO_SIZE;
		q.segments = (uintptr_t)segs;
		query_fails(fd, &q, EINVAL, segs, n * INFO_SIZE,
			    "array one entry short");
	}
	free(segs);
}

static void test_larger_buffer(int fd)
{
	struct drm_vseg_query_segments q, ref_q;
	struct drm_vseg_segment_info *segs, *ref;
	const unsigned int extra = 3;
	unsigned int n;

	ref = vseg_query_all(fd, &ref_q);
	n = ref_q.num_segments;

	for (unsigned int cap = n + 1; cap <= n + extra; cap++) {
		segs = poisoned_array(cap);
		memset(&q, 0, sizeof(q));
		q.num_segments = cap;
		q.segment_size = INFO_SIZE;
		q.segments = (uintptr_t)segs;
		do_ioctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, &q);
		igt_assert_eq_u32(q.num_segments, n);
		igt_assert_eq_u32(q.segment_size, INFO_SIZE);
		igt_assert_f(!memcmp(segs, ref, n * INFO_SIZE),
			     "a larger array got different entries\n");
		igt_assert_f(all_bytes(&segs[n], POISON, (cap - n) * INFO_SIZE),
			     "the entries past the count were written\n");
		free(segs);
	}
	free(ref);
}

enum mbz_field {
	MBZ_EXTENSIONS,
	MBZ_FLAGS_LOW,
	MBZ_FLAGS_HIGH,
	MBZ_PAD,
	MBZ_PAD2,
	MBZ_RESERVED0,
	MBZ_RESERVED1,
	MBZ_RESERVED2,
	MBZ_RESERVED3,
	MBZ_COUNT,
};

static const char *set_mbz(struct drm_vseg_query_segments *q,
			   enum mbz_field f)
{
	switch (f) {
	case MBZ_EXTENSIONS:
		q->extensions = 1;
		return "extensions";
	case MBZ_FLAGS_LOW:
		q->flags = 1;
		return "flags=1";
	case MBZ_FLAGS_HIGH:
		q->flags = 0x80000000u;
		return "flags=0x80000000";
	case MBZ_PAD:
		q->pad = 1;
		return "pad";
	case MBZ_PAD2:
		q->pad2 = 1;
		return "pad2";
	case MBZ_RESERVED0:
	case MBZ_RESERVED1:
	case MBZ_RESERVED2:
	case MBZ_RESERVED3:
		q->reserved[f - MBZ_RESERVED0] = 1;
		return "reserved[]";
	default:
		igt_assert(false);
	}
	return NULL;
}

static void test_invalid_mbz(int fd)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	unsigned int n;
	char what[80];

	vseg_query_count(fd, &q);
	n = q.num_segments;
	segs = poisoned_array(n);

	for (int f = 0; f < MBZ_COUNT; f++) {
		const char *name;

		/* On the count call. */
		memset(&q, 0, sizeof(q));
		name = set_mbz(&q, f);
		snprintf(what, sizeof(what), "count call with nonzero %s", name);
		query_fails(fd, &q, EINVAL, NULL, 0, what);

		/* On the fill call. */
		memset(&q, 0, sizeof(q));
		q.num_segments = n;
		q.segment_size = INFO_SIZE;
		q.segments = (uintptr_t)segs;
		name = set_mbz(&q, f);
		snprintf(what, sizeof(what), "fill call with nonzero %s", name);
		query_fails(fd, &q, EINVAL, segs, n * INFO_SIZE, what);
	}
	free(segs);
}

static void test_invalid_segment_size(int fd)
{
	static const struct {
		uint32_t size;
		int err;
	} sizes[] = {
		{ 0, EINVAL },
		{ 1, EINVAL },
		{ DRM_VSEG_SEGMENT_INFO_SIZE_V1 - 8, EINVAL },
		{ DRM_VSEG_SEGMENT_INFO_SIZE_V1 - 1, EINVAL },
		{ DRM_VSEG_SEGMENT_INFO_SIZE_MAX + 1, E2BIG },
		{ DRM_VSEG_SEGMENT_INFO_SIZE_MAX + 8, E2BIG },
		{ 0x80000000u, E2BIG },
		{ 0xffffffffu, E2BIG },
	};
	struct drm_vseg_query_segments q;
	unsigned int n;
	size_t len;
	char what[64];
	void *buf;

	vseg_query_count(fd, &q);
	n = q.num_segments;
	/* Room for n elements of the largest size tried that is sensible. */
	len = (size_t)n * (DRM_VSEG_SEGMENT_INFO_SIZE_MAX + 8);
	buf = malloc(len);
	igt_assert(buf);
	memset(buf, POISON, len);

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		memset(&q, 0, sizeof(q));
		q.num_segments = n;
		q.segment_size = sizes[i].size;
		q.segments = (uintptr_t)buf;
		snprintf(what, sizeof(what), "segment_size %u", sizes[i].size);
		query_fails(fd, &q, sizes[i].err, buf, len, what);
	}
	free(buf);
}

#define GUARD	4096

/*
 * A poisoned buffer of GUARD bytes, then @len bytes of array, then GUARD
 * bytes; returns the array.
 */
static uint8_t *guarded_array(size_t len)
{
	uint8_t *buf = malloc(len + 2 * GUARD);

	igt_assert(buf);
	memset(buf, POISON, len + 2 * GUARD);
	return buf + GUARD;
}

static void check_guards(const uint8_t *array, size_t len, const char *what)
{
	igt_assert_f(all_bytes(array - GUARD, POISON, GUARD),
		     "%s: the bytes before the array were written\n", what);
	igt_assert_f(all_bytes(array + len, POISON, GUARD),
		     "%s: the bytes after the array were written\n", what);
}

static void free_guarded(uint8_t *array)
{
	free(array - GUARD);
}

/*
 * The fill call with elements of @stride bytes and room for @cap of them:
 * element i of the table is at i * @stride, the reference's bytes then
 * zeroes; nothing else in the buffer changes.
 */
static void check_stride(int fd, const struct drm_vseg_segment_info *ref,
			 unsigned int n, uint32_t stride, unsigned int cap)
{
	size_t own = stride < INFO_SIZE ? stride : INFO_SIZE;
	size_t len = (size_t)cap * stride;
	struct drm_vseg_query_segments q;
	uint8_t *array = guarded_array(len);
	char what[64];

	snprintf(what, sizeof(what), "stride %u, capacity %u", stride, cap);
	memset(&q, 0, sizeof(q));
	q.num_segments = cap;
	q.segment_size = stride;
	q.segments = (uintptr_t)array;
	do_ioctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, &q);
	igt_assert_eq_u32(q.num_segments, n);
	igt_assert_eq_u32(q.segment_size, INFO_SIZE);
	igt_assert_eq_u64(q.segments, (uintptr_t)array);

	for (unsigned int i = 0; i < n; i++) {
		const uint8_t *e = array + (size_t)i * stride;

		igt_assert_f(!memcmp(e, &ref[i], own),
			     "%s: element %u differs from the reference\n",
			     what, i);
		igt_assert_f(all_bytes(e + own, 0, stride - own),
			     "%s: element %u: the %zu bytes past the kernel's structure are not zero\n",
			     what, i, stride - own);
	}
	igt_assert_f(all_bytes(array + (size_t)n * stride, POISON,
			       (size_t)(cap - n) * stride),
		     "%s: the elements past the count were written\n", what);
	check_guards(array, len, what);
	free_guarded(array);
}

static void test_stride(int fd)
{
	const uint32_t strides[] = {
		DRM_VSEG_SEGMENT_INFO_SIZE_V1,
		INFO_SIZE,
		INFO_SIZE + 1,
		INFO_SIZE + 8,
		INFO_SIZE + 24,
		2 * INFO_SIZE + 3,
		DRM_VSEG_SEGMENT_INFO_SIZE_MAX,
	};
	struct drm_vseg_query_segments ref_q;
	struct drm_vseg_segment_info *ref;
	unsigned int n;

	/* The kernel's own structure is the first version or a larger one. */
	igt_assert_lte(DRM_VSEG_SEGMENT_INFO_SIZE_V1, INFO_SIZE);
	ref = vseg_query_all(fd, &ref_q);
	n = ref_q.num_segments;

	for (unsigned int i = 0; i < ARRAY_SIZE(strides); i++) {
		check_stride(fd, ref, n, strides[i], n);
		check_stride(fd, ref, n, strides[i], n + 2);
	}
	free(ref);
}

/* The fill call with @stride, @cap and the array at @ptr fails with @err. */
static void stride_fails(int fd, uint32_t stride, uint32_t cap, uint64_t ptr,
			 int err, const char *what)
{
	struct drm_vseg_query_segments q;

	memset(&q, 0, sizeof(q));
	q.num_segments = cap;
	q.segment_size = stride;
	q.segments = ptr;
	query_fails(fd, &q, err, NULL, 0, what);
}

static void test_stride_hostile(int fd)
{
	const uint32_t max = DRM_VSEG_SEGMENT_INFO_SIZE_MAX;
	size_t page = sysconf(_SC_PAGESIZE), len;
	struct drm_vseg_query_segments q, ref_q;
	struct drm_vseg_segment_info *ref;
	uint8_t *array, *map;
	unsigned int n;

	ref = vseg_query_all(fd, &ref_q);
	n = ref_q.num_segments;

	/* A stride whose product with the count overflows 32 and 64 bits. */
	len = (size_t)n * max;
	array = guarded_array(len);
	memset(&q, 0, sizeof(q));
	q.num_segments = 0xffffffffu;
	q.segment_size = 0xffffffffu;
	q.segments = (uintptr_t)array;
	query_fails(fd, &q, E2BIG, array, len, "stride and count 0xffffffff");
	check_guards(array, len, "stride and count 0xffffffff");
	q.segment_size = max + 1;
	query_fails(fd, &q, E2BIG, array, len, "stride above the maximum");
	check_guards(array, len, "stride above the maximum");

	/*
	 * The largest stride with an absurd capacity: only the table's
	 * elements are written, nothing past them.
	 */
	memset(&q, 0, sizeof(q));
	q.num_segments = 0xffffffffu;
	q.segment_size = max;
	q.segments = (uintptr_t)array;
	do_ioctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, &q);
	igt_assert_eq_u32(q.num_segments, n);
	for (unsigned int i = 0; i < n; i++)
		igt_assert(!memcmp(array + (size_t)i * max, &ref[i], INFO_SIZE));
	check_guards(array, len, "stride maximum, capacity 0xffffffff");
	free_guarded(array);

	/* Arrays that wrap around the address space, or end in the kernel. */
	stride_fails(fd, max, n, (uint64_t)-(int64_t)page, EFAULT,
		     "array in the last page");
	stride_fails(fd, max, 0xffffffffu, UINT64_MAX - (uint64_t)max + 1,
		     EFAULT, "array wrapping around");
	stride_fails(fd, max, n, (1ull << 47) - max, EFAULT,
		     "array running into non-canonical addresses");

	/*
	 * Mapped memory for the first element only: the kernel reaches the
	 * second and fails with EFAULT, and writes nothing before the array.
	 */
	len = ALIGN((size_t)max, page);
	map = mmap(NULL, len + page + page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(map != MAP_FAILED);
	memset(map, POISON, len + page);
	igt_assert_eq(mprotect(map + page + len, page, PROT_NONE), 0);
	if (n >= 2) {
		memset(&q, 0, sizeof(q));
		q.num_segments = n;
		q.segment_size = len;
		q.segments = (uintptr_t)(map + page);
		query_fails(fd, &q, EFAULT, NULL, 0,
			    "second element on a PROT_NONE page");
		igt_assert_f(all_bytes(map, POISON, page),
			     "the page before the array was written\n");
	}
	munmap(map, len + page + page);

	/* The device still answers, with the same table. */
	{
		struct drm_vseg_segment_info *segs = vseg_query_all(fd, &q);

		igt_assert_eq_u32(q.num_segments, n);
		igt_assert(!memcmp(segs, ref, n * INFO_SIZE));
		free(segs);
	}
	free(ref);
}

static void test_null_array(int fd)
{
	struct drm_vseg_query_segments q;
	unsigned int n;

	vseg_query_count(fd, &q);
	n = q.num_segments;

	memset(&q, 0, sizeof(q));
	q.num_segments = n;
	q.segment_size = INFO_SIZE;
	query_fails(fd, &q, EINVAL, NULL, 0, "NULL array, count given");

	memset(&q, 0, sizeof(q));
	q.num_segments = n + 1;
	q.segment_size = INFO_SIZE;
	query_fails(fd, &q, EINVAL, NULL, 0, "NULL array, larger count");
}

static void fill_fails_efault(int fd, unsigned int n, uint64_t ptr,
			      const char *what)
{
	struct drm_vseg_query_segments q;
	int ret;

	memset(&q, 0, sizeof(q));
	q.num_segments = n;
	q.segment_size = INFO_SIZE;
	q.segments = ptr;
	ret = __vseg_query_segments(fd, &q);
	igt_assert_f(ret == -EFAULT, "%s: query returned %d (%s), expected -EFAULT\n",
		     what, ret, strerror(-ret));
}

static void test_bad_pointer(int fd)
{
	struct drm_vseg_query_segments q, ref_q;
	struct drm_vseg_segment_info *ref;
	size_t page = sysconf(_SC_PAGESIZE), len;
	unsigned int n;
	char *map;

	ref = vseg_query_all(fd, &ref_q);
	n = ref_q.num_segments;
	len = ALIGN(n * INFO_SIZE, page);

	/* A kernel address. */
	fill_fails_efault(fd, n, (uint64_t)(uintptr_t)-4096, "pointer -4096");
	fill_fails_efault(fd, n, 1ull << 63, "non-canonical pointer");

	/* Unmapped user memory. */
	map = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(map != MAP_FAILED);
	fill_fails_efault(fd, n, (uintptr_t)map, "PROT_NONE mapping");

	/* Read-only user memory: the kernel must not be able to write. */
	igt_assert_eq(mprotect(map, len, PROT_READ), 0);
	fill_fails_efault(fd, n, (uintptr_t)map, "read-only mapping");
	munmap(map, len);

	/* An array whose last byte is on an inaccessible page. */
	map = mmap(NULL, len + page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(map != MAP_FAILED);
	igt_assert_eq(mprotect(map + len, page, PROT_NONE), 0);
	fill_fails_efault(fd, n, (uintptr_t)(map + len - n * INFO_SIZE + 1),
			  "array crossing into a PROT_NONE page");
	munmap(map, len + page);

	/* A bad pointer to the ioctl argument itself. */
	errno = 0;
	igt_assert_eq(igt_ioctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, NULL), -1);
	igt_assert_eq(errno, EFAULT);
	errno = 0;
	igt_assert_eq(igt_ioctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS,
				(void *)(uintptr_t)-4096), -1);
	igt_assert_eq(errno, EFAULT);
	map = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(map != MAP_FAILED);
	do_ioctl_err(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, map, EFAULT);
	munmap(map, page);

	/* The device still answers, with the same table. */
	{
		struct drm_vseg_segment_info *segs = vseg_query_all(fd, &q);

		igt_assert_eq_u32(q.num_segments, n);
		igt_assert(!memcmp(segs, ref, n * INFO_SIZE));
		free(segs);
	}
	free(ref);
}

static void test_render_node(int fd)
{
	struct drm_vseg_query_segments q, rq;
	struct drm_vseg_segment_info *segs, *rsegs;

	close_fd(&render_fd);
	render_fd = __drm_open_vseg_render();
	igt_assert_f(render_fd >= 0, "vseg has no render node\n");

	segs = vseg_query_all(fd, &q);
	rsegs = vseg_query_all(render_fd, &rq);
	igt_assert(!memcmp(&q, &rq, offsetof(struct drm_vseg_query_segments,
					     segments)));
	igt_assert_eq_u32(rq.paging_buffer_segment_id, q.paging_buffer_segment_id);
	igt_assert_eq_u32(rq.paging_buffer_size, q.paging_buffer_size);
	igt_assert_eq_u32(rq.paging_buffer_private_data_size,
			  q.paging_buffer_private_data_size);
	igt_assert_f(!memcmp(segs, rsegs, q.num_segments * INFO_SIZE),
		     "the render node returned a different table\n");

	free(segs);
	free(rsegs);
	close_fd(&render_fd);
}

/* --- DRM_IOCTL_VSEG_DEVICE_QUERY ---------------------------------------- */

static const uint32_t device_queries[] = {
	DRM_VSEG_DEVICE_QUERY_VERSION, DRM_VSEG_DEVICE_QUERY_SEGMENTS,
	DRM_VSEG_DEVICE_QUERY_ENGINES, DRM_VSEG_DEVICE_QUERY_HEADS,
	DRM_VSEG_DEVICE_QUERY_LIMITS, DRM_VSEG_DEVICE_QUERY_BUDGET,
};

static void test_dq_version(int fd)
{
	struct drm_vseg_query_version *v;
	drmVersionPtr dv = drmGetVersion(fd);
	uint32_t size;

	igt_assert(dv);
	v = vseg_device_query(fd, DRM_VSEG_DEVICE_QUERY_VERSION, &size);
	igt_assert_eq_u32(size, sizeof(*v));
	igt_assert_eq_u32(v->major, dv->version_major);
	igt_assert_eq_u32(v->minor, dv->version_minor);
	igt_assert_eq_u32(v->patchlevel, dv->version_patchlevel);
	igt_assert_eq_u32(v->major, 0);
	igt_assert_lte(4, v->minor);
	igt_assert_eq_u32(v->pad, 0);
	igt_assert(!v->reserved[0] && !v->reserved[1]);
	drmFreeVersion(dv);
	free(v);
}

static void test_dq_segments(int fd)
{
	struct drm_vseg_query_segment_table *h;
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	uint32_t size;

	segs = vseg_query_all(fd, &q);
	h = vseg_device_query(fd, DRM_VSEG_DEVICE_QUERY_SEGMENTS, &size);
	igt_assert_eq_u32(h->num_segments, q.num_segments);
	igt_assert_eq_u32(h->segment_size, INFO_SIZE);
	igt_assert_eq_u32(size, sizeof(*h) + h->num_segments * INFO_SIZE);
	igt_assert_eq_u32(h->paging_buffer_segment_id,
			  q.paging_buffer_segment_id);
	igt_assert_eq_u32(h->paging_buffer_size, q.paging_buffer_size);
	igt_assert_eq_u32(h->paging_buffer_private_data_size,
			  q.paging_buffer_private_data_size);
	igt_assert(!memcmp(&h->system_usage, &q.system_usage,
			   sizeof(q.system_usage)));
	igt_assert_eq_u32(h->pad, 0);
	igt_assert(!h->reserved[0] && !h->reserved[1]);
	igt_assert_f(!memcmp(h + 1, segs, q.num_segments * INFO_SIZE),
		     "DEVICE_QUERY's table differs from QUERY_SEGMENTS'\n");
	free(segs);
	free(h);
}

static void test_dq_engines(int fd)
{
	static const uint32_t want[] = {
		DRM_VSEG_ENGINE_INFO_PHYSICAL | DRM_VSEG_ENGINE_INFO_SUBMIT,
		DRM_VSEG_ENGINE_INFO_VIRTUAL | DRM_VSEG_ENGINE_INFO_SUBMIT,
		DRM_VSEG_ENGINE_INFO_PHYSICAL,
	};
	struct drm_vseg_query_engines *h;
	struct drm_vseg_engine_info *e;
	uint32_t size;

	h = vseg_device_query(fd, DRM_VSEG_DEVICE_QUERY_ENGINES, &size);
	igt_assert_eq_u32(h->num_engines, 3);
	igt_assert_eq_u32(h->engine_size, sizeof(*e));
	igt_assert_eq_u32(size, sizeof(*h) + 3 * sizeof(*e));
	igt_assert_eq_u64(h->reserved, 0);
	e = (void *)(h + 1);
	for (uint32_t i = 0; i < h->num_engines; i++) {
		igt_assert_eq_u32(e[i].id, i);
		igt_assert_eq_u32(e[i].flags, want[i]);
		igt_assert(e[i].name[0] && memchr(e[i].name, 0,
						  sizeof(e[i].name)));
		igt_assert(!e[i].reserved[0] && !e[i].reserved[1]);
		igt_info("engine %u: %s flags %#x\n", e[i].id, e[i].name,
			 e[i].flags);
	}
	igt_assert_eq_u32(e[DRM_VSEG_ENGINE_PAGING].id, DRM_VSEG_ENGINE_PAGING);
	free(h);
}

static uint32_t heads_active(int fd)
{
	struct drm_vseg_query_heads *h;
	struct drm_vseg_head_info *hi;
	uint32_t size, mask = 0;

	h = vseg_device_query(fd, DRM_VSEG_DEVICE_QUERY_HEADS, &size);
	igt_assert_eq_u32(h->num_heads, DRM_VSEG_NUM_HEADS);
	igt_assert_eq_u32(h->head_size, sizeof(*hi));
	igt_assert_eq_u32(size, sizeof(*h) + DRM_VSEG_NUM_HEADS * sizeof(*hi));
	hi = (void *)(h + 1);
	for (uint32_t i = 0; i < h->num_heads; i++) {
		igt_assert_eq_u32(hi[i].id, i);
		igt_assert(!(hi[i].flags & ~DRM_VSEG_HEAD_ACTIVE));
		igt_assert(!hi[i].reserved[0] && !hi[i].reserved[1]);
		if (hi[i].flags & DRM_VSEG_HEAD_ACTIVE)
			mask |= 1u << i;
	}
	free(h);
	return mask;
}

static void test_dq_heads(int fd)
{
	int rfd = drm_open_vseg_render();
	uint32_t primary;

	igt_assert_eq_u32(heads_active(fd), 0);
	primary = vseg_gem_create_simple(fd, SZ_1M, VSEG_SEG_BIT(1) | vseg_system_set(fd),
					 DRM_VSEG_GEM_CREATE_PRIMARY);
	vseg_display_show(fd, 1, primary);
	igt_assert_eq_u32(heads_active(fd), 2);
	/* Another client, on the render node, sees the same. */
	igt_assert_eq_u32(heads_active(rfd), 2);
	vseg_display_show(fd, 1, 0);
	igt_assert_eq_u32(heads_active(fd), 0);
	igt_assert_eq_u32(heads_active(rfd), 0);
	vseg_gem_close(fd, primary);
	close(rfd);
}

static void test_dq_limits(int fd)
{
	struct drm_vseg_query_limits *l;
	uint32_t size;

	l = vseg_device_query(fd, DRM_VSEG_DEVICE_QUERY_LIMITS, &size);
	igt_assert_eq_u32(size, sizeof(*l));
	igt_assert_eq_u32(l->max_segments, DRM_VSEG_MAX_SEGMENTS);
	igt_assert_eq_u32(l->max_banks, DRM_VSEG_MAX_BANKS);
	igt_assert_eq_u32(l->max_invalid_ranges, DRM_VSEG_MAX_INVALID_RANGES);
	igt_assert_eq_u32(l->max_preferred, DRM_VSEG_MAX_PREFERRED);
	igt_assert_eq_u32(l->max_hinted_banks, DRM_VSEG_MAX_HINTED_BANKS);
	igt_assert_eq_u32(l->max_residency_handles,
			  DRM_VSEG_MAX_RESIDENCY_HANDLES);
	igt_assert_eq_u32(l->max_cmd_bytes, DRM_VSEG_MAX_CMD_BYTES);
	igt_assert_eq_u32(l->max_allocations, DRM_VSEG_MAX_ALLOCATIONS);
	igt_assert_eq_u32(l->max_patches, DRM_VSEG_MAX_PATCHES);
	igt_assert_eq_u32(l->max_syncs, DRM_VSEG_MAX_SYNCS);
	igt_assert_eq_u32(l->max_jobs_in_flight, DRM_VSEG_MAX_JOBS_IN_FLIGHT);
	igt_assert_eq_u32(l->max_vm_mappings, DRM_VSEG_MAX_VM_MAPPINGS);
	igt_assert_eq_u32(l->max_extensions, DRM_VSEG_MAX_EXTENSIONS);
	igt_assert_eq_u32(l->num_heads, DRM_VSEG_NUM_HEADS);
	/* The module's defaults: per process, per user, for the device. */
	igt_assert_eq_u32(l->pin_limit_percent, 50);
	igt_assert_eq_u32(l->pin_user_limit_percent, 75);
	igt_assert_eq_u32(l->pin_device_limit_percent, 90);
	igt_assert_eq_u32(l->sync_size_max, DRM_VSEG_SYNC_SIZE_MAX);
	igt_assert_eq_u64(l->va_size, 1ull << 47);
	/* Page granularity since driver minor 7 (drm_gpuvm; 64 KiB before). */
	igt_assert_eq_u64(l->va_alignment, (uint64_t)sysconf(_SC_PAGESIZE));
	for (unsigned int i = 0; i < ARRAY_SIZE(l->reserved); i++)
		igt_assert_eq_u64(l->reserved[i], 0);
	free(l);
}

#define DQ_GUARD	64

/*
 * Each query with a short, an exact and a long buffer: the kernel writes
 * the smaller of the two sizes, zeroes the rest of the caller's, touches
 * nothing past it, and always reports its own size.
 */
static void test_dq_sizes(int fd)
{
	for (unsigned int k = 0; k < ARRAY_SIZE(device_queries); k++) {
		uint32_t q = device_queries[k], len, size, cuts[4];
		uint8_t *full, *buf;

		full = vseg_device_query(fd, q, &len);
		cuts[0] = 1;
		cuts[1] = len / 2;
		cuts[2] = len;
		cuts[3] = len + 40;
		buf = malloc(len + 40 + DQ_GUARD);
		igt_assert(buf);
		for (unsigned int c = 0; c < ARRAY_SIZE(cuts); c++) {
			size = cuts[c];
			memset(buf, 0xa5, len + 40 + DQ_GUARD);
			igt_assert_eq(__vseg_device_query(fd, q, buf, &size), 0);
			igt_assert_eq_u32(size, len);
			/* Usage counters may move: compare the fixed ones. */
			if (q != DRM_VSEG_DEVICE_QUERY_SEGMENTS &&
			    q != DRM_VSEG_DEVICE_QUERY_HEADS &&
			    q != DRM_VSEG_DEVICE_QUERY_BUDGET)
				igt_assert(!memcmp(buf, full,
						   cuts[c] < len ? cuts[c] : len));
			for (uint32_t i = len; i < cuts[c]; i++)
				igt_assert_f(buf[i] == 0,
					     "query %u: byte %u past the result not zeroed\n",
					     q, i);
			for (uint32_t i = cuts[c]; i < len + 40 + DQ_GUARD; i++)
				igt_assert_f(buf[i] == 0xa5,
					     "query %u, size %u: byte %u written\n",
					     q, cuts[c], i);
		}
		/* Too large a buffer; the size is left as it was. */
		size = DRM_VSEG_DEVICE_QUERY_SIZE_MAX + 1;
		igt_assert_eq(__vseg_device_query(fd, q, buf, &size), -E2BIG);
		igt_assert_eq_u32(size, DRM_VSEG_DEVICE_QUERY_SIZE_MAX + 1);
		/* The largest allowed size works. */
		free(buf);
		buf = calloc(1, DRM_VSEG_DEVICE_QUERY_SIZE_MAX);
		igt_assert(buf);
		size = DRM_VSEG_DEVICE_QUERY_SIZE_MAX;
		igt_assert_eq(__vseg_device_query(fd, q, buf, &size), 0);
		igt_assert_eq_u32(size, len);
		free(buf);
		free(full);
	}
}

static int dq_raw(int fd, struct drm_vseg_device_query *q)
{
	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_DEVICE_QUERY, q);
}

static void test_dq_invalid(int fd)
{
	static const uint32_t bad_ids[] = { 0, 7, 0x100, ~0u };
	uint8_t buf[256];
	struct drm_vseg_device_query q;

	for (unsigned int i = 0; i < ARRAY_SIZE(bad_ids); i++) {
		memset(&q, 0, sizeof(q));
		q.query = bad_ids[i];
		igt_assert_eq(dq_raw(fd, &q), -EINVAL);
		igt_assert_eq_u32(q.size, 0);
		q.size = sizeof(buf);
		q.data = (uintptr_t)buf;
		igt_assert_eq(dq_raw(fd, &q), -EINVAL);
		igt_assert_eq_u32(q.size, sizeof(buf));
	}
	for (unsigned int f = 0; f < 5; f++) {
		memset(&q, 0, sizeof(q));
		q.query = DRM_VSEG_DEVICE_QUERY_VERSION;
		switch (f) {
		case 0:
			q.extensions = (uintptr_t)buf;
			break;
		case 1:
			q.flags = 1;
			break;
		case 2:
			q.pad = 1;
			break;
		case 3:
			q.reserved[0] = 1;
			break;
		default:
			q.reserved[1] = 1ull << 63;
			break;
		}
		igt_assert_f(dq_raw(fd, &q) == -EINVAL,
			     "nonzero field %u accepted\n", f);
		igt_assert_eq_u32(q.size, 0);
	}
}

static void test_dq_bad_pointer(int fd)
{
	void *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	struct drm_vseg_device_query q;

	igt_assert(none != MAP_FAILED && ro != MAP_FAILED);
	for (unsigned int k = 0; k < ARRAY_SIZE(device_queries); k++) {
		void *ptrs[] = { NULL, none, ro, (void *)-4096l };

		for (unsigned int p = 0; p < ARRAY_SIZE(ptrs); p++) {
			memset(&q, 0, sizeof(q));
			q.query = device_queries[k];
			q.size = 16;
			q.data = (uintptr_t)ptrs[p];
			igt_assert_f(dq_raw(fd, &q) == -EFAULT,
				     "query %u to pointer %p not refused\n",
				     q.query, ptrs[p]);
			igt_assert_eq_u32(q.size, 16);
			/* The size call reads no pointer. */
			q.size = 0;
			igt_assert_eq(dq_raw(fd, &q), 0);
			igt_assert(q.size > 16 ||
				   q.query == DRM_VSEG_DEVICE_QUERY_VERSION);
		}
	}
	igt_assert_eq(__vseg_ioctl(fd, DRM_IOCTL_VSEG_DEVICE_QUERY, none),
		      -EFAULT);
	munmap(none, 4096);
	munmap(ro, 4096);
}

static void test_dq_render_node(int fd)
{
	int rfd = drm_open_vseg_render();

	test_dq_version(rfd);
	test_dq_segments(rfd);
	test_dq_engines(rfd);
	test_dq_limits(rfd);
	test_dq_sizes(rfd);
	test_dq_invalid(rfd);
	close(rfd);
	(void)fd;
}

/* --- extension chains: GEM_CREATE's label ------------------------------- */

/* The debugfs "allocations" line of @fd's buffer @handle. */
static char *allocation_line(int fd, uint32_t handle)
{
	struct drm_vseg_gem_info info;
	char *text, *line, *end, head[64];

	vseg_gem_info(fd, handle, &info);
	text = vseg_debugfs_read_text(card_fd, "allocations");
	igt_require_f(text, "no debugfs\n");
	snprintf(head, sizeof(head), "\nbo %llu owner=",
		 (unsigned long long)info.buffer_id);
	line = strstr(text, head);
	igt_assert_f(line, "buffer %llu not in debugfs allocations\n",
		     (unsigned long long)info.buffer_id);
	line = strdup(line + 1);
	free(text);
	igt_assert(line);
	end = strchr(line, '\n');
	if (end)
		*end = 0;
	return line;
}

static unsigned int allocation_count(int fd)
{
	struct vseg_allocations a;
	unsigned int n;

	vseg_debugfs_read_allocations(fd, &a);
	n = a.count;
	vseg_debugfs_free_allocations(&a);
	return n;
}

static int create_ext(int fd, uint64_t chain, uint32_t *handle)
{
	struct drm_vseg_gem_create c;
	int err;

	vseg_create_args(&c, SZ_64K, VSEG_SEG_BIT(1) | vseg_system_set(fd), 0);
	c.extensions = chain;
	err = __vseg_gem_create(fd, &c);
	if (handle)
		*handle = err ? 0 : c.handle;
	return err;
}

static void label_ext(struct drm_vseg_gem_create_ext_label *l,
		      const char *label)
{
	memset(l, 0, sizeof(*l));
	l->base.name = DRM_VSEG_GEM_CREATE_EXT_LABEL;
	memcpy(l->label, label, strnlen(label, sizeof(l->label)));
}

static void test_ext_label(int fd)
{
	struct drm_vseg_gem_create_ext_label l;
	uint32_t a, b;
	char *line;

	label_ext(&l, "vertex-buffer#1");
	igt_assert_eq(create_ext(fd, (uintptr_t)&l, &a), 0);
	/* A 31-character label, the longest. */
	label_ext(&l, "abcdefghijklmnopqrstuvwxyz01234");
	igt_assert_eq(create_ext(fd, (uintptr_t)&l, &b), 0);

	line = allocation_line(fd, a);
	igt_assert_f(strstr(line, " label=vertex-buffer#1") &&
		     !strstr(line, " label=vertex-buffer#1 "),
		     "label not shown: \"%s\"\n", line);
	free(line);
	line = allocation_line(fd, b);
	igt_assert_f(strstr(line, " label=abcdefghijklmnopqrstuvwxyz01234"),
		     "label not shown: \"%s\"\n", line);
	free(line);
	vseg_gem_close(fd, a);
	vseg_gem_close(fd, b);

	/* No chain: no label. */
	igt_assert_eq(create_ext(fd, 0, &a), 0);
	line = allocation_line(fd, a);
	igt_assert_f(!strstr(line, "label="), "unlabelled buffer: \"%s\"\n",
		     line);
	free(line);
	vseg_gem_close(fd, a);
}

static void expect_create_refused(int fd, uint64_t chain, int want,
				  const char *what)
{
	unsigned int before = allocation_count(card_fd);
	uint32_t handle;
	int err = create_ext(fd, chain, &handle);

	igt_assert_f(err == want, "%s: GEM_CREATE gave %d (%s), expected %d\n",
		     what, err, vseg_errname(err), want);
	igt_assert_f(allocation_count(card_fd) == before,
		     "%s: a refused create left a buffer\n", what);
}

static void test_ext_invalid(int fd)
{
	struct drm_vseg_gem_create_ext_label l, l2;
	struct drm_vseg_user_extension links[DRM_VSEG_MAX_EXTENSIONS + 1];
	void *none;

	label_ext(&l, "");
	expect_create_refused(fd, (uintptr_t)&l, -EINVAL, "empty label");
	memset(l.label, 'x', sizeof(l.label));
	expect_create_refused(fd, (uintptr_t)&l, -EINVAL, "no NUL");
	label_ext(&l, "two words");
	expect_create_refused(fd, (uintptr_t)&l, -EINVAL, "space");
	label_ext(&l, "tab\there");
	expect_create_refused(fd, (uintptr_t)&l, -EINVAL, "control character");
	label_ext(&l, "caf\xc3\xa9");
	expect_create_refused(fd, (uintptr_t)&l, -EINVAL, "not ASCII");
	label_ext(&l, "ok");
	l.label[10] = 'x';
	expect_create_refused(fd, (uintptr_t)&l, -EINVAL, "bytes after NUL");
	label_ext(&l, "ok");
	l.base.pad = 1;
	expect_create_refused(fd, (uintptr_t)&l, -EINVAL, "nonzero pad");
	label_ext(&l, "ok");
	l.base.name = 0;
	expect_create_refused(fd, (uintptr_t)&l, -EINVAL, "name 0");
	l.base.name = 0x7fffffff;
	expect_create_refused(fd, (uintptr_t)&l, -EINVAL, "unknown name");

	/* The same extension twice. */
	label_ext(&l, "one");
	label_ext(&l2, "two");
	l.base.next_extension = (uintptr_t)&l2;
	expect_create_refused(fd, (uintptr_t)&l, -EINVAL, "label twice");
	/* A good first link, a bad second one: nothing is created. */
	l2.base.name = 99;
	expect_create_refused(fd, (uintptr_t)&l, -EINVAL,
			      "unknown second link");

	/* Loops and long chains. */
	label_ext(&l, "loop");
	l.base.next_extension = (uintptr_t)&l;
	expect_create_refused(fd, (uintptr_t)&l, -E2BIG, "a link to itself");
	l.base.next_extension = (uintptr_t)&l2;
	label_ext(&l2, "loop2");
	l2.base.next_extension = (uintptr_t)&l;
	expect_create_refused(fd, (uintptr_t)&l, -E2BIG, "a loop of two");
	memset(links, 0, sizeof(links));
	for (unsigned int i = 0; i + 1 < ARRAY_SIZE(links); i++)
		links[i].next_extension = (uintptr_t)&links[i + 1];
	expect_create_refused(fd, (uintptr_t)links, -E2BIG,
			      "a chain one link too long");

	/* Pointers. */
	none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(none != MAP_FAILED);
	expect_create_refused(fd, (uintptr_t)none, -EFAULT, "unreadable chain");
	label_ext(&l, "ok");
	l.base.next_extension = (uintptr_t)none;
	expect_create_refused(fd, (uintptr_t)&l, -EFAULT,
			      "unreadable second link");
	munmap(none, 4096);
	/* The header readable, the label running into a hole. */
	{
		char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct drm_vseg_user_extension *h = (void *)(p + 4096 - 16);

		igt_assert(p != MAP_FAILED);
		igt_assert_eq(mprotect(p + 4096, 4096, PROT_NONE), 0);
		h->name = DRM_VSEG_GEM_CREATE_EXT_LABEL;
		expect_create_refused(fd, (uintptr_t)h, -EFAULT,
				      "label in a hole");
		munmap(p, 8192);
	}
	expect_create_refused(fd, 1ull << 63, -EFAULT, "kernel address");

	/* Other ioctls take no extension. */
	{
		struct drm_vseg_gem_info info = {};

		label_ext(&l, "ok");
		info.extensions = (uintptr_t)&l;
		igt_assert_eq(__vseg_ioctl(fd, DRM_IOCTL_VSEG_GEM_INFO, &info),
			      -EINVAL);
	}
}

/* Another client's chains change nothing of the first one's buffers. */
static void test_ext_hostile(int fd)
{
	struct drm_vseg_gem_create_ext_label l;
	int rfd = drm_open_vseg_render();
	uint32_t a, b;
	char *line;

	label_ext(&l, "mine");
	igt_assert_eq(create_ext(fd, (uintptr_t)&l, &a), 0);
	/* The second client's refused chains, then its own label. */
	l.base.next_extension = (uintptr_t)&l;
	expect_create_refused(rfd, (uintptr_t)&l, -E2BIG, "render-node loop");
	label_ext(&l, "theirs");
	igt_assert_eq(create_ext(rfd, (uintptr_t)&l, &b), 0);
	line = allocation_line(fd, a);
	igt_assert_f(strstr(line, " label=mine"), "\"%s\"\n", line);
	free(line);
	line = allocation_line(rfd, b);
	igt_assert_f(strstr(line, " label=theirs"), "\"%s\"\n", line);
	free(line);
	vseg_gem_close(rfd, b);
	vseg_gem_close(fd, a);
	close(rfd);
}

igt_main
{
	igt_fixture {
		vseg_require_module();
		igt_install_exit_handler(cleanup);
		vseg_reload("profile=discrete");
		card_fd = drm_open_vseg();
	}

	igt_describe("The count call returns the number of segments, the "
		     "element size and the paging buffer; the fill call with "
		     "that count and size fills the table.");
	igt_subtest("query-count")
		test_query_count(card_fd);

	igt_describe("Usage counters are zero while no buffer exists.");
	igt_subtest("query-usage-zero")
		test_usage_zero(card_fd);

	igt_describe("An array smaller than the table is refused with EINVAL "
		     "and left untouched.");
	igt_subtest("query-short-buffer")
		test_short_buffer(card_fd);

	igt_describe("An array larger than the table is accepted; the count "
		     "is written back and the extra entries are untouched.");
	igt_subtest("query-larger-buffer")
		test_larger_buffer(card_fd);

	igt_describe("Nonzero extensions, flags, padding or reserved fields "
		     "are refused with EINVAL.");
	igt_subtest("query-invalid-mbz")
		test_invalid_mbz(card_fd);

	igt_describe("On the fill call, a segment_size below the first "
		     "version's is refused with EINVAL, one above "
		     "DRM_VSEG_SEGMENT_INFO_SIZE_MAX with E2BIG, and the array "
		     "is left untouched.");
	igt_subtest("query-invalid-segment-size")
		test_invalid_segment_size(card_fd);

	igt_describe("The fill call takes the caller's element size as the "
		     "stride of its array: each element is at its stride, holds "
		     "the kernel's structure followed by zeroes, and nothing "
		     "outside the table's elements is written.");
	igt_subtest("query-stride")
		test_stride(card_fd);

	igt_describe("Strides and counts that would reach far beyond the "
		     "array, or wrap around the address space, are refused or "
		     "write only the table's elements.");
	igt_subtest("query-stride-hostile")
		test_stride_hostile(card_fd);

	igt_describe("A count without an array is refused with EINVAL.");
	igt_subtest("query-null-array")
		test_null_array(card_fd);

	igt_describe("Unwritable arrays and a bad argument pointer give "
		     "EFAULT.");
	igt_subtest("query-bad-pointer")
		test_bad_pointer(card_fd);

	igt_describe("The query works on the render node and returns the same "
		     "table.");
	igt_subtest("query-render-node")
		test_render_node(card_fd);

	igt_describe("The table of each built-in profile obeys the rules, "
		     "has no usage and reads the same on every query and "
		     "node.");
	igt_describe("DEVICE_QUERY's version is DRM_IOCTL_VERSION's.");
	igt_subtest("device-query-version")
		test_dq_version(card_fd);

	igt_describe("DEVICE_QUERY's segment table is QUERY_SEGMENTS'.");
	igt_subtest("device-query-segments")
		test_dq_segments(card_fd);

	igt_describe("DEVICE_QUERY lists the engines.");
	igt_subtest("device-query-engines")
		test_dq_engines(card_fd);

	igt_describe("DEVICE_QUERY shows which heads are on.");
	igt_subtest("device-query-heads")
		test_dq_heads(card_fd);

	igt_describe("DEVICE_QUERY's limits are the header's constants.");
	igt_subtest("device-query-limits")
		test_dq_limits(card_fd);

	igt_describe("Short and long buffers: the smaller size is copied.");
	igt_subtest("device-query-sizes")
		test_dq_sizes(card_fd);

	igt_describe("Unknown ids and nonzero reserved fields give EINVAL.");
	igt_subtest("device-query-invalid")
		test_dq_invalid(card_fd);

	igt_describe("Unwritable result pointers give EFAULT.");
	igt_subtest("device-query-bad-pointer")
		test_dq_bad_pointer(card_fd);

	igt_describe("Every query works the same on the render node.");
	igt_subtest("device-query-render-node")
		test_dq_render_node(card_fd);

	igt_describe("GEM_CREATE's label extension names the buffer.");
	igt_subtest("extension-label")
		test_ext_label(card_fd);

	igt_describe("Bad extension chains are refused and create nothing.");
	igt_subtest("extension-invalid")
		test_ext_invalid(card_fd);

	igt_describe("A second client's chains do not touch the first's "
		     "buffers.");
	igt_subtest("extension-hostile")
		test_ext_hostile(card_fd);

	igt_subtest_with_dynamic("query-table") {
		close_fd(&card_fd);
		vseg_dynamic_profiles(test_query_table);
	}

	igt_fixture {
		close_fd(&render_fd);
		close_fd(&profile_fd);
		close_fd(&card_fd);
		vseg_unload();
	}
}
