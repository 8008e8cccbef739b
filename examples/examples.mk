# Example programs (built against include/ and build/lib/ only).
#
# build/examples/memory_demo: the AscendCL memory round trip; public headers
# only (-Iinclude, no UAPI), linked with -Lbuild/lib -lacl_rt and an rpath to
# build/lib/ so it runs without LD_LIBRARY_PATH.  examples/run-demo
# runs it inside the VM guest.  build/examples/vmm_share: reserve -> physical
# -> map -> copy -> unmap -> remap -> share with a second process.
# build/examples/async_sample: context -> stream -> pinned host + device
# memory -> async H2D / set / D2H -> synchronize -> verify -> destroy.
# build/examples/runtime_sample: a vendor runtime sample's shape: context ->
# stream -> copies -> sync -> a data buffer reused with odd sizes -> Force
# teardown (run in the VM by tests/vm/test_api_surface).
# build/examples/peer_ring: a buffer copied around 4 devices with peer
# access, verified at each stop, per-pair counters printed (run in the VM by
# tests/vm/test_peer with num_devices=4).

EXAMPLES := $(BUILD)/examples/memory_demo $(BUILD)/examples/vmm_share \
	    $(BUILD)/examples/async_sample $(BUILD)/examples/runtime_sample \
	    $(BUILD)/examples/peer_ring

user: $(EXAMPLES)

$(BUILD)/examples/memory_demo: examples/memory_demo.c $(LIBACL_RT_SO) $(wildcard include/acl/*.h include/acl/*/*.h)
	@mkdir -p $(@D)
	$(CC) -Iinclude $(CFLAGS) $(LDFLAGS) -o $@ examples/memory_demo.c -L$(LIBACL_RT_DIR) -lacl_rt \
		-Wl,-rpath,'$$ORIGIN/../lib'

$(BUILD)/examples/vmm_share: examples/vmm_share.c $(LIBACL_RT_SO) $(wildcard include/acl/*.h include/acl/*/*.h)
	@mkdir -p $(@D)
	$(CC) -Iinclude $(CFLAGS) $(LDFLAGS) -o $@ examples/vmm_share.c -L$(LIBACL_RT_DIR) -lacl_rt \
		-Wl,-rpath,'$$ORIGIN/../lib'

$(BUILD)/examples/async_sample: examples/async_sample.c $(LIBACL_RT_SO) $(wildcard include/acl/*.h include/acl/*/*.h)
	@mkdir -p $(@D)
	$(CC) -Iinclude $(CFLAGS) $(LDFLAGS) -o $@ examples/async_sample.c -L$(LIBACL_RT_DIR) -lacl_rt \
		-Wl,-rpath,'$$ORIGIN/../lib'

$(BUILD)/examples/runtime_sample: examples/runtime_sample.c $(LIBACL_RT_SO) $(wildcard include/acl/*.h include/acl/*/*.h)
	@mkdir -p $(@D)
	$(CC) -Iinclude $(CFLAGS) $(LDFLAGS) -o $@ examples/runtime_sample.c -L$(LIBACL_RT_DIR) -lacl_rt \
		-Wl,-rpath,'$$ORIGIN/../lib'

$(BUILD)/examples/peer_ring: examples/peer_ring.c $(LIBACL_RT_SO) $(wildcard include/acl/*.h include/acl/*/*.h)
	@mkdir -p $(@D)
	$(CC) -Iinclude $(CFLAGS) $(LDFLAGS) -o $@ examples/peer_ring.c -L$(LIBACL_RT_DIR) -lacl_rt \
		-Wl,-rpath,'$$ORIGIN/../lib'
