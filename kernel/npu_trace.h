/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of npu_sim (trace system "npu_sim"): what the driver did, for
 * ftrace, trace-cmd and perf.  Defined once in npu_trace.c; the events only
 * record their arguments and call nothing, so any layer may fire them.
 *
 *   npu_sim_alloc / npu_sim_free    a physical memory object made / gone
 *   npu_sim_map / npu_sim_unmap     a VA range of a context in / out
 *   npu_sim_copy                    a copy or set ran (bytes, direction)
 *   npu_sim_migrate                 a managed block copied host <-> device
 *   npu_sim_host_fault              a host access fault on the window
 *   npu_sim_stream_op_start / _end  a stream worker runs one op
 *   npu_sim_fault_inject            an operation failed on purpose
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM npu_sim

#if !defined(NPU_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define NPU_TRACE_H

#include <linux/tracepoint.h>

/* Enum values, so that user space tools can print the names. */
TRACE_DEFINE_ENUM(NPU_SIM_PAGE_NORMAL);
TRACE_DEFINE_ENUM(NPU_SIM_PAGE_HUGE_2M);
TRACE_DEFINE_ENUM(NPU_SIM_PAGE_HUGE_1G);
TRACE_DEFINE_ENUM(NPU_MAP_LINEAR);
TRACE_DEFINE_ENUM(NPU_MAP_RESERVATION);
TRACE_DEFINE_ENUM(NPU_MAP_VMM);
TRACE_DEFINE_ENUM(NPU_MAP_MANAGED);
TRACE_DEFINE_ENUM(NPU_MAP_IMPORTED);
TRACE_DEFINE_ENUM(NPU_MAP_REGISTERED);
TRACE_DEFINE_ENUM(NPU_XFER_H2D);
TRACE_DEFINE_ENUM(NPU_XFER_D2H);
TRACE_DEFINE_ENUM(NPU_XFER_D2D);
TRACE_DEFINE_ENUM(NPU_XFER_SET);
TRACE_DEFINE_ENUM(NPU_XFER_SET32);
TRACE_DEFINE_ENUM(NPU_XFER_REDUCE);
TRACE_DEFINE_ENUM(NPU_XFER_HOLD);
TRACE_DEFINE_ENUM(NPU_SIM_OP_COPY);
TRACE_DEFINE_ENUM(NPU_SIM_OP_SET);
TRACE_DEFINE_ENUM(NPU_SIM_OP_RECORD);
TRACE_DEFINE_ENUM(NPU_SIM_OP_WAIT);
TRACE_DEFINE_ENUM(NPU_SIM_OP_PREFETCH);
TRACE_DEFINE_ENUM(NPU_SIM_OP_VALUE_WRITE);
TRACE_DEFINE_ENUM(NPU_SIM_OP_VALUE_WAIT);
TRACE_DEFINE_ENUM(NPU_SIM_OP_REDUCE);
TRACE_DEFINE_ENUM(NPU_SIM_OP_CMO);
TRACE_DEFINE_ENUM(NPU_SIM_FAULT_ALLOC);
TRACE_DEFINE_ENUM(NPU_SIM_FAULT_MAP);
TRACE_DEFINE_ENUM(NPU_SIM_FAULT_IMPORT);
TRACE_DEFINE_ENUM(NPU_SIM_FAULT_COPY);
TRACE_DEFINE_ENUM(NPU_SIM_FAULT_STREAM);

DECLARE_EVENT_CLASS(npu_sim_phys_class,
	TP_PROTO(int dev, pid_t pid, u32 kind, u64 bytes, bool host),
	TP_ARGS(dev, pid, kind, bytes, host),
	TP_STRUCT__entry(
		__field(int, dev)
		__field(pid_t, pid)
		__field(u32, kind)
		__field(bool, host)
		__field(u64, bytes)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->kind = kind;
		__entry->host = host;
		__entry->bytes = bytes;
	),
	TP_printk("dev=%d pid=%d bytes=%llu kind=%s mem=%s",
		  __entry->dev, __entry->pid, __entry->bytes,
		  __print_symbolic(__entry->kind,
				   { NPU_SIM_PAGE_NORMAL, "normal" },
				   { NPU_SIM_PAGE_HUGE_2M, "huge_2m" },
				   { NPU_SIM_PAGE_HUGE_1G, "huge_1g" }),
		  __entry->host ? "host" : "device")
);

DEFINE_EVENT(npu_sim_phys_class, npu_sim_alloc,
	TP_PROTO(int dev, pid_t pid, u32 kind, u64 bytes, bool host),
	TP_ARGS(dev, pid, kind, bytes, host));

DEFINE_EVENT(npu_sim_phys_class, npu_sim_free,
	TP_PROTO(int dev, pid_t pid, u32 kind, u64 bytes, bool host),
	TP_ARGS(dev, pid, kind, bytes, host));

DECLARE_EVENT_CLASS(npu_sim_map_class,
	TP_PROTO(int dev, pid_t pid, u32 role, u64 id, u64 va, u64 len),
	TP_ARGS(dev, pid, role, id, va, len),
	TP_STRUCT__entry(
		__field(int, dev)
		__field(pid_t, pid)
		__field(u32, role)
		__field(u64, id)
		__field(u64, va)
		__field(u64, len)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->role = role;
		__entry->id = id;
		__entry->va = va;
		__entry->len = len;
	),
	TP_printk("dev=%d pid=%d role=%s id=%llu va=0x%llx len=%llu",
		  __entry->dev, __entry->pid,
		  __print_symbolic(__entry->role,
				   { NPU_MAP_LINEAR, "linear" },
				   { NPU_MAP_RESERVATION, "reservation" },
				   { NPU_MAP_VMM, "vmm" },
				   { NPU_MAP_MANAGED, "managed" },
				   { NPU_MAP_IMPORTED, "imported" },
				   { NPU_MAP_REGISTERED, "registered" }),
		  __entry->id, __entry->va, __entry->len)
);

DEFINE_EVENT(npu_sim_map_class, npu_sim_map,
	TP_PROTO(int dev, pid_t pid, u32 role, u64 id, u64 va, u64 len),
	TP_ARGS(dev, pid, role, id, va, len));

DEFINE_EVENT(npu_sim_map_class, npu_sim_unmap,
	TP_PROTO(int dev, pid_t pid, u32 role, u64 id, u64 va, u64 len),
	TP_ARGS(dev, pid, role, id, va, len));

/* @src_dev, @dst_dev: device index of the operand, -1 for host memory. */
TRACE_EVENT(npu_sim_copy,
	TP_PROTO(u32 dir, int src_dev, int dst_dev, u64 src, u64 dst,
		 u64 bytes, int ret),
	TP_ARGS(dir, src_dev, dst_dev, src, dst, bytes, ret),
	TP_STRUCT__entry(
		__field(u32, dir)
		__field(int, src_dev)
		__field(int, dst_dev)
		__field(int, ret)
		__field(u64, src)
		__field(u64, dst)
		__field(u64, bytes)
	),
	TP_fast_assign(
		__entry->dir = dir;
		__entry->src_dev = src_dev;
		__entry->dst_dev = dst_dev;
		__entry->ret = ret;
		__entry->src = src;
		__entry->dst = dst;
		__entry->bytes = bytes;
	),
	TP_printk("dir=%s bytes=%llu src_dev=%d dst_dev=%d src=0x%llx dst=0x%llx ret=%d",
		  __print_symbolic(__entry->dir,
				   { NPU_XFER_H2D, "H2D" },
				   { NPU_XFER_D2H, "D2H" },
				   { NPU_XFER_D2D, "D2D" },
				   { NPU_XFER_SET, "SET" },
				   { NPU_XFER_SET32, "SET32" },
				   { NPU_XFER_REDUCE, "REDUCE" },
				   { NPU_XFER_HOLD, "HOLD" }),
		  __entry->bytes, __entry->src_dev, __entry->dst_dev,
		  __entry->src, __entry->dst, __entry->ret)
);

TRACE_EVENT(npu_sim_migrate,
	TP_PROTO(int dev, pid_t pid, u64 va, u64 bytes, bool to_dev),
	TP_ARGS(dev, pid, va, bytes, to_dev),
	TP_STRUCT__entry(
		__field(int, dev)
		__field(pid_t, pid)
		__field(bool, to_dev)
		__field(u64, va)
		__field(u64, bytes)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->to_dev = to_dev;
		__entry->va = va;
		__entry->bytes = bytes;
	),
	TP_printk("dev=%d pid=%d va=0x%llx bytes=%llu to=%s",
		  __entry->dev, __entry->pid, __entry->va, __entry->bytes,
		  __entry->to_dev ? "device" : "host")
);

TRACE_EVENT(npu_sim_host_fault,
	TP_PROTO(int dev, pid_t pid, u64 addr, bool write, u32 result),
	TP_ARGS(dev, pid, addr, write, result),
	TP_STRUCT__entry(
		__field(int, dev)
		__field(pid_t, pid)
		__field(bool, write)
		__field(u32, result)
		__field(u64, addr)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->write = write;
		__entry->result = result;
		__entry->addr = addr;
	),
	TP_printk("dev=%d pid=%d addr=0x%llx %s vm_fault=0x%x",
		  __entry->dev, __entry->pid, __entry->addr,
		  __entry->write ? "write" : "read", __entry->result)
);

DECLARE_EVENT_CLASS(npu_sim_stream_op_class,
	TP_PROTO(int dev, pid_t pid, u32 stream, u64 seq, u32 type, int ret),
	TP_ARGS(dev, pid, stream, seq, type, ret),
	TP_STRUCT__entry(
		__field(int, dev)
		__field(pid_t, pid)
		__field(u32, stream)
		__field(u32, type)
		__field(int, ret)
		__field(u64, seq)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->stream = stream;
		__entry->type = type;
		__entry->ret = ret;
		__entry->seq = seq;
	),
	TP_printk("dev=%d pid=%d stream=%u seq=%llu op=%s ret=%d",
		  __entry->dev, __entry->pid, __entry->stream, __entry->seq,
		  __print_symbolic(__entry->type,
				   { NPU_SIM_OP_COPY, "copy" },
				   { NPU_SIM_OP_SET, "set" },
				   { NPU_SIM_OP_RECORD, "record" },
				   { NPU_SIM_OP_WAIT, "wait" },
				   { NPU_SIM_OP_PREFETCH, "prefetch" },
				   { NPU_SIM_OP_VALUE_WRITE, "value_write" },
				   { NPU_SIM_OP_VALUE_WAIT, "value_wait" },
				   { NPU_SIM_OP_REDUCE, "reduce" },
				   { NPU_SIM_OP_CMO, "cmo" }), __entry->ret)
);

DEFINE_EVENT(npu_sim_stream_op_class, npu_sim_stream_op_start,
	TP_PROTO(int dev, pid_t pid, u32 stream, u64 seq, u32 type, int ret),
	TP_ARGS(dev, pid, stream, seq, type, ret));

DEFINE_EVENT(npu_sim_stream_op_class, npu_sim_stream_op_end,
	TP_PROTO(int dev, pid_t pid, u32 stream, u64 seq, u32 type, int ret),
	TP_ARGS(dev, pid, stream, seq, type, ret));

/* @call: index of the eligible operation in the context (from 1). */
TRACE_EVENT(npu_sim_fault_inject,
	TP_PROTO(int dev, pid_t pid, u32 op, u64 call, int err),
	TP_ARGS(dev, pid, op, call, err),
	TP_STRUCT__entry(
		__field(int, dev)
		__field(pid_t, pid)
		__field(u32, op)
		__field(int, err)
		__field(u64, call)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->pid = pid;
		__entry->op = op;
		__entry->err = err;
		__entry->call = call;
	),
	TP_printk("dev=%d pid=%d op=%s call=%llu err=%d",
		  __entry->dev, __entry->pid,
		  __print_symbolic(__entry->op,
				   { NPU_SIM_FAULT_ALLOC, "alloc" },
				   { NPU_SIM_FAULT_MAP, "map" },
				   { NPU_SIM_FAULT_IMPORT, "import" },
				   { NPU_SIM_FAULT_COPY, "copy" },
				   { NPU_SIM_FAULT_STREAM, "stream" }),
		  __entry->call, __entry->err)
);

#endif /* NPU_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE npu_trace
#include <trace/define_trace.h>
