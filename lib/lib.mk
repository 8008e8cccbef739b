# libacl_rt: build/lib/libacl_rt.so and build/lib/libacl_rt.a.
#
# Sources by role (README "Layout"; the layer order of the files is written
# once, at the top of lib/acl_internal.h, and checked by
# tests/tools/test-lib-layers):
#   lib/api/    one file per chapter of the public headers (include/acl)
#   lib/rules/  the pure rule files the unit tests link directly
#   lib/core/   the ioctl transport, handle registry and live-range check
#   lib/diag/   checks, trace, fault injection, limits, failure messages
#   lib/entry/  the exported wrappers and the fork handlers, above all else
# Internal headers sit next to their file; lib/acl_internal.h is the
# interface between the parts.  Built with -fvisibility=hidden: only
# ACL_FUNC_VISIBILITY symbols (the ACL API) are exported from the shared
# library.

LIB_API_SRCS := $(addprefix lib/api/,init.c err_msg.c data_buffer.c device.c soc_name.c context.c \
	device_info.c device_limits.c host_buf.c callbacks_init.c device_state.c exception_info.c \
	exception_info_get.c app_log.c cann_attr.c \
	stream_state.c model_ri_taskgrp_state.c model_ri_capture.c model_ri_taskgrp.c stream.c stream_ctl.c stream_config.c stream_res.c event.c callback.c \
	memory_linear.c memory_info.c memory_host.c host_register.c copy.c \
	copy_async.c memcpy_batch.c reduce.c cmo.c mem_pool_defer.c mem_pool.c memcpy_desc.c allocator.c vmm.c vmm_share.c ipc_mem.c managed.c notify.c model_ri.c model_ri_build.c model_ri_cond.c label.c peer.c errors.c mem_uce.c data_type.c system.c)
LIB_PURE_SRCS := $(addprefix lib/rules/,policy.c address.c copy_rules.c meminfo_rules.c errmap.c \
	vmm_rules.c profile.c platform_spec.c device_rules.c key_string.c)
LIB_CORE_SRCS := $(addprefix lib/core/,uapi_check.c transport.c handles.c range_check.c)
LIB_DIAG_SRCS := $(addprefix lib/diag/,report.c races_clock.c races_shadow.c races.c check.c symbolize.c faults.c limits.c alloc_diag.c)
LIB_SRCS := $(LIB_PURE_SRCS) $(LIB_CORE_SRCS) $(LIB_DIAG_SRCS) $(LIB_API_SRCS) \
	lib/entry/api_wrap.c lib/entry/fork.c
LIB_DIRS := lib lib/api lib/core lib/rules lib/diag lib/entry

# The wrappers of every call: each exported aclError call is compiled as
# npu_rt_impl_<call> (the generated api_rename.h, forced into every other
# lib file) and exported by entry/api_wrap.c, which records failures for
# aclGetRecentErrMsg.  Files that
# define calls returning something else (err_msg.c, data_buffer.c) are not
# renamed and record their own failures; nor is errors.c, whose calls
# return an earlier call's code.
LIB_UNWRAPPED_SRCS := lib/api/err_msg.c lib/entry/api_wrap.c lib/api/data_buffer.c lib/api/soc_name.c \
	lib/api/data_type.c lib/api/errors.c lib/api/exception_info_get.c lib/api/app_log.c lib/api/allocator.c \
	lib/api/stream_config.c
# The call trace (NPU_SIM_TRACE, docs/tracing.md): the generated
# npu_rt_traced_<call> functions (api_trace.h, included by api_wrap.c), the
# trace file (diag/trace.c) and the pure JSON formatting (diag/trace_fmt.c).
LIB_SRCS += lib/diag/trace.c lib/diag/trace_fmt.c
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
LIB_CFLAGS := -fvisibility=hidden -pthread $(LIB_DIRS:%=-I%)
LIB_HEADERS := $(wildcard $(LIB_DIRS:%=%/*.h) include/acl/*.h include/acl/error_codes/*.h) \
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

# The shared library is built with link-time optimisation, so the many
# small calls of a call's path across lib files (device table accessors,
# rules, the transport) are inlined, and calls into libc go through the GOT
# without a PLT stub: under QEMU's TCG each call and return is a costly
# indirect jump, and they were most of the library's share of a small call
# (BENCHMARKS.md "The library's share of a call").  The static library and
# its objects (tests/tools/test-lib-layers reads their calls) are built
# without.
#
# Its thread-local variables use the initial-exec model: a %fs-relative
# load instead of a __tls_get_addr call per access (the current device of
# every copy, malloc and query).  Such a library's whole TLS block must fit
# in the surplus glibc keeps in static TLS for dlopen (the Python module
# loads it so); glibc 2.32 and later keep 512 bytes for it
# (glibc.rtld.optional_static_tls) besides what libc's own needs leave.  So
# the block holds small fields only (the message texts are on the heap:
# lib/api/err_msg.h npu_rt_tbuf), and the link fails if it grows past
# LIB_TLS_MAX bytes.
LIB_TLS_MAX := 256
LIB_SO_FLAGS := -flto=auto -fno-plt -fno-jump-tables -mmemset-strategy=unrolled_loop:256:noalign,libcall:-1:noalign \
	-ftls-model=initial-exec

$(LIBACL_RT_SO): $(LIB_PIC_OBJS)
	$(CC) $(CFLAGS) $(LIB_SO_FLAGS) -fPIC -shared -Wl,-soname,libacl_rt.so -Wl,--no-undefined -Wl,-z,defs \
		-o $@.tmp $^ -pthread
	@tls=$$(($$(readelf -lW $@.tmp | awk '$$1 == "TLS" { print $$6 }'))); \
	if [ "$$tls" -gt $(LIB_TLS_MAX) ]; then \
		echo "$@: thread-local block of $$tls bytes, more than LIB_TLS_MAX=$(LIB_TLS_MAX) (lib/lib.mk)" >&2; \
		rm -f $@.tmp; exit 1; \
	fi
	mv -f $@.tmp $@

$(LIBACL_RT_A): $(LIB_STATIC_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/lib/pic/%.o: lib/%.c $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LIB_CFLAGS) $(LIB_API_FLAGS) $(LIB_SO_FLAGS) -fPIC -c -o $@ $<

$(BUILD)/lib/static/%.o: lib/%.c $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LIB_CFLAGS) $(LIB_API_FLAGS) -c -o $@ $<

