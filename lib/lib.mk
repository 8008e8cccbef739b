# libacl_rt: lib/libacl_rt.so and lib/libacl_rt.a.
#
# One source file per API group (init, device, memory_linear, memory_host,
# copy, meminfo, vmm, vmm_share, context, stream, event, copy_async,
# managed), the pure rule files the unit tests link directly (policy,
# address, copy_rules, meminfo_rules, errmap, vmm_rules), the handle
# registry, the ioctl transport and fork handling.
# Built with -fvisibility=hidden: only ACL_FUNC_VISIBILITY symbols (the ACL
# API) are exported from the shared library.

LIB_PURE_SRCS := lib/policy.c lib/address.c lib/copy_rules.c lib/meminfo_rules.c lib/errmap.c lib/vmm_rules.c
LIB_SRCS := $(LIB_PURE_SRCS) lib/uapi_check.c lib/transport.c lib/device.c lib/init.c lib/fork.c \
	lib/memory_linear.c lib/memory_host.c lib/copy.c lib/meminfo.c lib/vmm.c \
	lib/vmm_share.c lib/handles.c lib/context.c lib/stream.c lib/event.c lib/copy_async.c \
	lib/managed.c

LIB_PIC_OBJS := $(LIB_SRCS:lib/%.c=$(BUILD)/lib/pic/%.o)
LIB_STATIC_OBJS := $(LIB_SRCS:lib/%.c=$(BUILD)/lib/static/%.o)
LIB_PURE_OBJS := $(LIB_PURE_SRCS:lib/%.c=$(BUILD)/lib/static/%.o)
LIB_CFLAGS := -fvisibility=hidden -pthread
LIB_HEADERS := $(wildcard lib/*.h include/acl/*.h include/acl/error_codes/*.h) \
	include/uapi/misc/npu_sim.h include/uapi/misc/npu_sim_layout.h

user: lib/libacl_rt.so lib/libacl_rt.a

lib/libacl_rt.so: $(LIB_PIC_OBJS)
	$(CC) -shared -Wl,-soname,libacl_rt.so -Wl,--no-undefined -Wl,-z,defs \
		-o $@ $^ -pthread

lib/libacl_rt.a: $(LIB_STATIC_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/lib/pic/%.o: lib/%.c $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LIB_CFLAGS) -fPIC -c -o $@ $<

$(BUILD)/lib/static/%.o: lib/%.c $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LIB_CFLAGS) -c -o $@ $<

CLEAN_FILES += lib/libacl_rt.so lib/libacl_rt.a
