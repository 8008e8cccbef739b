# libacl_rt: build/lib/libacl_rt.so and build/lib/libacl_rt.a.
#
# One source file per API group (init, device, memory_linear, memory_host,
# copy, meminfo, vmm, vmm_share, context, stream, event, copy_async,
# managed, peer), the pure rule files the unit tests link directly (policy,
# address, copy_rules, meminfo_rules, errmap, vmm_rules), the handle
# registry, the ioctl transport and fork handling.
# Built with -fvisibility=hidden: only ACL_FUNC_VISIBILITY symbols (the ACL
# API) are exported from the shared library.

LIB_API_SRCS := lib/err_msg.c lib/api_wrap.c lib/data_buffer.c lib/alloc_diag.c \
	lib/stream_force.c lib/version.c lib/memory_variants.c lib/memory_cache.c lib/memory_type.c \
	lib/range_check.c lib/memset_d32.c lib/memcpy_batch.c lib/vmm_noucmem.c lib/vmm_share_v2.c \
	lib/managed_batch.c lib/stream_value.c lib/ipc_mem.c lib/host_register.c lib/mem_usage.c \
	lib/soc_name.c lib/limits.c lib/faults.c lib/check.c lib/symbolize.c
LIB_PURE_SRCS := lib/policy.c lib/address.c lib/copy_rules.c lib/meminfo_rules.c lib/errmap.c lib/vmm_rules.c \
	lib/profile.c
LIB_SRCS := $(LIB_PURE_SRCS) lib/uapi_check.c lib/transport.c lib/device.c lib/init.c lib/fork.c \
	lib/memory_linear.c lib/memory_host.c lib/copy.c lib/meminfo.c lib/vmm.c \
	lib/vmm_share.c lib/handles.c lib/context.c lib/stream.c lib/event.c lib/copy_async.c \
	lib/managed.c lib/peer.c $(LIB_API_SRCS)

# Added API groups, and the message store and wrappers of every call: each
# exported aclError call is compiled as npu_rt_impl_<call> (the generated
# api_rename.h, forced into every other lib file) and exported by
# api_wrap.c, which records failures for aclGetRecentErrMsg.  Files that
# define calls returning something else (err_msg.c, data_buffer.c) are not
# renamed and record their own failures.
LIB_UNWRAPPED_SRCS := lib/err_msg.c lib/api_wrap.c lib/data_buffer.c lib/soc_name.c
# The call trace (NPU_SIM_TRACE, docs/tracing.md): the generated
# npu_rt_traced_<call> functions (api_trace.h, included by api_wrap.c), the
# trace file (trace.c) and the pure JSON formatting (trace_fmt.c).
LIB_SRCS += lib/trace.c lib/trace_fmt.c
LIB_WRAPPED_SRCS = $(filter-out $(LIB_UNWRAPPED_SRCS),$(LIB_SRCS))
API_GEN_DIR := $(BUILD)/lib/gen
API_RENAME_H := $(API_GEN_DIR)/api_rename.h
API_LIST_H := $(API_GEN_DIR)/api_list.h
API_TRACE_H := $(API_GEN_DIR)/api_trace.h

$(API_RENAME_H) $(API_LIST_H) $(API_TRACE_H) &: tools/gen-api-wrappers $(LIB_WRAPPED_SRCS) $(wildcard include/acl/*.h)
	@mkdir -p $(@D)
	python3 tools/gen-api-wrappers --trace $(API_TRACE_H) $(API_RENAME_H) $(API_LIST_H) $(wildcard include/acl/*.h) -- \
		$(LIB_WRAPPED_SRCS)

LIB_PIC_OBJS := $(LIB_SRCS:lib/%.c=$(BUILD)/lib/pic/%.o)
LIB_STATIC_OBJS := $(LIB_SRCS:lib/%.c=$(BUILD)/lib/static/%.o)
LIB_PURE_OBJS := $(LIB_PURE_SRCS:lib/%.c=$(BUILD)/lib/static/%.o)
LIB_CFLAGS := -fvisibility=hidden -pthread
LIB_HEADERS := $(wildcard lib/*.h include/acl/*.h include/acl/error_codes/*.h) \
	include/uapi/misc/npu_sim.h include/uapi/misc/npu_sim_layout.h include/uapi/misc/npu_sim_profiles.h \
	$(API_RENAME_H) $(API_LIST_H) $(API_TRACE_H) include/npu_sim/check.h

LIB_API_FLAGS = -include $(API_RENAME_H)
$(LIB_UNWRAPPED_SRCS:lib/%.c=$(BUILD)/lib/pic/%.o) $(LIB_UNWRAPPED_SRCS:lib/%.c=$(BUILD)/lib/static/%.o): \
	LIB_API_FLAGS = -I$(API_GEN_DIR)

# The library's outputs; the other fragments link against these names.
LIBACL_RT_DIR := $(BUILD)/lib
LIBACL_RT_SO  := $(LIBACL_RT_DIR)/libacl_rt.so
LIBACL_RT_A   := $(LIBACL_RT_DIR)/libacl_rt.a

user: $(LIBACL_RT_SO) $(LIBACL_RT_A)

$(LIBACL_RT_SO): $(LIB_PIC_OBJS)
	$(CC) -shared -Wl,-soname,libacl_rt.so -Wl,--no-undefined -Wl,-z,defs \
		-o $@ $^ -pthread

$(LIBACL_RT_A): $(LIB_STATIC_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/lib/pic/%.o: lib/%.c $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LIB_CFLAGS) $(LIB_API_FLAGS) -fPIC -c -o $@ $<

$(BUILD)/lib/static/%.o: lib/%.c $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LIB_CFLAGS) $(LIB_API_FLAGS) -c -o $@ $<

