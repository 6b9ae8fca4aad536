// SPDX-License-Identifier: MIT
/*
 * vseg_query: DRM_IOCTL_VSEG_QUERY_SEGMENTS, the segment table query.
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
 *	table of every built-in profile, and the rejection of bad arguments.
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
