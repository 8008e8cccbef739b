# Command-line tools: npu-sim-smi (status) and npu-sim-load (libkmod loader).
# Objects and binaries go to $(BUILD)/tools: build/tools/npu-sim-smi and
# build/tools/npu-sim-load run from a checkout (and in the VM, which sees
# the host tree).

TOOLS_BUILD := $(BUILD)/tools
TOOLS_STATE_OBJS := $(TOOLS_BUILD)/npu_sim_state.o $(TOOLS_BUILD)/text_records.o
SMI_OBJS  := $(TOOLS_BUILD)/npu_sim_smi.o $(TOOLS_BUILD)/smi_table.o \
	     $(TOOLS_BUILD)/smi_json.o $(TOOLS_BUILD)/smi_query.o \
	     $(TOOLS_STATE_OBJS)
LOAD_OBJS := $(TOOLS_BUILD)/npu_sim_load.o $(TOOLS_STATE_OBJS)
KMOD_CFLAGS := $(shell pkg-config --cflags libkmod 2>/dev/null)
KMOD_LIBS   := $(shell pkg-config --libs libkmod 2>/dev/null || echo -lkmod)
# npu-sim-smi: tables (libsmartcols) and JSON (json-c)
SMI_CFLAGS := $(shell pkg-config --cflags smartcols json-c 2>/dev/null)
SMI_LIBS   := $(shell pkg-config --libs smartcols json-c 2>/dev/null || echo -lsmartcols -ljson-c)

NPU_SIM_SMI  := $(TOOLS_BUILD)/npu-sim-smi
NPU_SIM_LOAD := $(TOOLS_BUILD)/npu-sim-load
TOOLS := $(NPU_SIM_SMI) $(NPU_SIM_LOAD)

.PHONY: tools
user: tools
tools: $(TOOLS)

$(TOOLS_BUILD)/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(KMOD_CFLAGS) $(SMI_CFLAGS) -MMD -MP -c -o $@ $<

$(NPU_SIM_SMI): $(SMI_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(SMI_LIBS)

$(NPU_SIM_LOAD): $(LOAD_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(KMOD_LIBS)

-include $(SMI_OBJS:.o=.d) $(TOOLS_BUILD)/npu_sim_load.d

# npu-sim-replay: re-issues a call trace's memory calls (docs/tracing.md).
# Linked against build/lib/libacl_rt.so (rpath relative to the binary, so
# it runs from a checkout and in the VM) and json-c.
NPU_SIM_REPLAY := $(TOOLS_BUILD)/npu-sim-replay
JSONC_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null)
JSONC_LIBS   := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
TOOLS += $(NPU_SIM_REPLAY)
tools: $(NPU_SIM_REPLAY)

$(TOOLS_BUILD)/npu_sim_replay.o: CPPFLAGS += $(JSONC_CFLAGS)
$(NPU_SIM_REPLAY): $(TOOLS_BUILD)/npu_sim_replay.o $(LIBACL_RT_SO)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -L$(LIBACL_RT_DIR) -lacl_rt \
		-Wl,-rpath,'$$ORIGIN/../lib' $(JSONC_LIBS) -pthread

-include $(TOOLS_BUILD)/npu_sim_replay.d
