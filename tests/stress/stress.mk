# Stress tests (tests/stress): plain C programs run in the guest by
# tests/stress/run-in-guest, each printing a Check-format summary line.
# Short variants by default; NPU_SIM_STRESS=1 (make stress) the long ones.

STRESS_NAMES := stress_fuzz stress_kill stress_conc stress_cycle stress_probe stress_streams
STRESS_DIR   := $(BUILD)/tests/stress
STRESS_BINS  := $(addprefix $(STRESS_DIR)/,$(STRESS_NAMES))
STRESS_COMMON := $(STRESS_DIR)/stress_common.o
STRESS_HDRS  := tests/stress/stress.h tests/npu_raw_stream.h $(wildcard include/acl/*.h) include/uapi/misc/npu_sim.h

user: $(STRESS_BINS)

$(STRESS_BINS:%=%.o) $(STRESS_COMMON): $(STRESS_DIR)/%.o: tests/stress/%.c $(STRESS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(STRESS_BINS): $(STRESS_DIR)/%: $(STRESS_DIR)/%.o $(STRESS_COMMON) $(LIBACL_RT_SO)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) -L$(LIBACL_RT_DIR) -lacl_rt \
		-Wl,-rpath,'$$ORIGIN/../../lib' -pthread
