/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 *
 * vseg's tracepoints (events/vseg/ in tracefs): a timeline of buffers,
 * moves, GART mappings, residency calls and jobs, for perf, trace-cmd or
 * tracefs itself (see "Tracing" in Documentation/gpu/vseg.rst).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vseg

#if !defined(__VSEG_TRACE_H__) || defined(TRACE_HEADER_MULTI_READ)
#define __VSEG_TRACE_H__

#include <linux/tracepoint.h>
#include <linux/types.h>

#include "vseg_bo.h"

TRACE_DEFINE_ENUM(VSEG_MOVE_CREATE);
TRACE_DEFINE_ENUM(VSEG_MOVE_EVICTION);
TRACE_DEFINE_ENUM(VSEG_MOVE_RESIDENCY);
TRACE_DEFINE_ENUM(VSEG_MOVE_FAULT);
TRACE_DEFINE_ENUM(VSEG_MOVE_SUBMISSION);
TRACE_DEFINE_ENUM(VSEG_MOVE_SCANOUT);
TRACE_DEFINE_ENUM(VSEG_MOVE_POWER);

#define vseg_show_reason(r)						\
	__print_symbolic(r,						\
			 { VSEG_MOVE_CREATE, "create" },		\
			 { VSEG_MOVE_EVICTION, "eviction" },		\
			 { VSEG_MOVE_RESIDENCY, "residency" },		\
			 { VSEG_MOVE_FAULT, "fault" },			\
			 { VSEG_MOVE_SUBMISSION, "submission" },	\
			 { VSEG_MOVE_SCANOUT, "scanout" },		\
			 { VSEG_MOVE_POWER, "power" })

TRACE_EVENT(vseg_bo_create,
	    TP_PROTO(u64 id, u64 size, u32 seg, u32 flags, u32 supported),
	    TP_ARGS(id, size, seg, flags, supported),
	    TP_STRUCT__entry(__field(u64, id)
			     __field(u64, size)
			     __field(u32, seg)
			     __field(u32, flags)
			     __field(u32, supported)),
	    TP_fast_assign(__entry->id = id;
			   __entry->size = size;
			   __entry->seg = seg;
			   __entry->flags = flags;
			   __entry->supported = supported;),
	    TP_printk("bo=%llu size=%llu seg=%u flags=0x%x supported=0x%x",
		      __entry->id, __entry->size, __entry->seg, __entry->flags,
		      __entry->supported)
);

TRACE_EVENT(vseg_bo_destroy,
	    TP_PROTO(u64 id, u64 size),
	    TP_ARGS(id, size),
	    TP_STRUCT__entry(__field(u64, id)
			     __field(u64, size)),
	    TP_fast_assign(__entry->id = id;
			   __entry->size = size;),
	    TP_printk("bo=%llu size=%llu", __entry->id, __entry->size)
);

/* @from is -1 for a buffer that had no placement yet. */
TRACE_EVENT(vseg_bo_move,
	    TP_PROTO(u64 id, s32 from, u32 to, u64 bytes, u32 reason),
	    TP_ARGS(id, from, to, bytes, reason),
	    TP_STRUCT__entry(__field(u64, id)
			     __field(u64, bytes)
			     __field(s32, from)
			     __field(u32, to)
			     __field(u32, reason)),
	    TP_fast_assign(__entry->id = id;
			   __entry->bytes = bytes;
			   __entry->from = from;
			   __entry->to = to;
			   __entry->reason = reason;),
	    TP_printk("bo=%llu from=%d to=%u bytes=%llu reason=%s",
		      __entry->id, __entry->from, __entry->to, __entry->bytes,
		      vseg_show_reason(__entry->reason))
);

DECLARE_EVENT_CLASS(vseg_gart,
		    TP_PROTO(u64 offset, u64 bytes),
		    TP_ARGS(offset, bytes),
		    TP_STRUCT__entry(__field(u64, offset)
				     __field(u64, bytes)),
		    TP_fast_assign(__entry->offset = offset;
				   __entry->bytes = bytes;),
		    TP_printk("offset=0x%llx bytes=%llu", __entry->offset, __entry->bytes)
);

/* Entries of the aperture written; @offset: in the aperture, in bytes. */
DEFINE_EVENT(vseg_gart, vseg_gart_map,
	     TP_PROTO(u64 offset, u64 bytes),
	     TP_ARGS(offset, bytes)
);

DEFINE_EVENT(vseg_gart, vseg_gart_unmap,
	     TP_PROTO(u64 offset, u64 bytes),
	     TP_ARGS(offset, bytes)
);

/* MAKE_RESIDENT (evict=0) or EVICT (evict=1), when it returns. */
TRACE_EVENT(vseg_residency,
	    TP_PROTO(bool evict, u32 count, u32 flags, u32 done, int ret),
	    TP_ARGS(evict, count, flags, done, ret),
	    TP_STRUCT__entry(__field(u32, evict)
			     __field(u32, count)
			     __field(u32, flags)
			     __field(u32, done)
			     __field(int, ret)),
	    TP_fast_assign(__entry->evict = evict;
			   __entry->count = count;
			   __entry->flags = flags;
			   __entry->done = done;
			   __entry->ret = ret;),
	    TP_printk("op=%s count=%u flags=0x%x done=%u ret=%d",
		      __entry->evict ? "evict" : "make_resident", __entry->count,
		      __entry->flags, __entry->done, __entry->ret)
);

DECLARE_EVENT_CLASS(vseg_job,
		    TP_PROTO(u32 engine, u64 context, u64 seqno, int error),
		    TP_ARGS(engine, context, seqno, error),
		    TP_STRUCT__entry(__field(u64, context)
				     __field(u64, seqno)
				     __field(u32, engine)
				     __field(int, error)),
		    TP_fast_assign(__entry->context = context;
				   __entry->seqno = seqno;
				   __entry->engine = engine;
				   __entry->error = error;),
		    TP_printk("engine=%u ctx=%llu seqno=%llu error=%d", __entry->engine,
			      __entry->context, __entry->seqno, __entry->error)
);

/* Submitted: waits for its dependencies, then goes to the engine. */
DEFINE_EVENT(vseg_job, vseg_job_queue,
	     TP_PROTO(u32 engine, u64 context, u64 seqno, int error),
	     TP_ARGS(engine, context, seqno, error)
);

DEFINE_EVENT(vseg_job, vseg_job_run,
	     TP_PROTO(u32 engine, u64 context, u64 seqno, int error),
	     TP_ARGS(engine, context, seqno, error)
);

/* Its fence signalled, with @error. */
DEFINE_EVENT(vseg_job, vseg_job_done,
	     TP_PROTO(u32 engine, u64 context, u64 seqno, int error),
	     TP_ARGS(engine, context, seqno, error)
);

#endif /* __VSEG_TRACE_H__ */

/* Out of tree: the header is found beside its .c (see the Makefile). */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE vseg_trace
#include <trace/define_trace.h>
