# Command-line tools: npu-sim-smi (status) and npu-sim-load (libkmod loader).
# Objects go to $(BUILD)/tools; the binaries sit next to their sources so
# they run from a checkout (and from the VM, which sees the host tree).

TOOLS_BUILD := $(BUILD)/tools
TOOLS_STATE_OBJS := $(TOOLS_BUILD)/npu_sim_state.o $(TOOLS_BUILD)/text_records.o
SMI_OBJS  := $(TOOLS_BUILD)/npu_sim_smi.o $(TOOLS_BUILD)/smi_table.o \
	     $(TOOLS_BUILD)/smi_json.o $(TOOLS_STATE_OBJS)
LOAD_OBJS := $(TOOLS_BUILD)/npu_sim_load.o $(TOOLS_STATE_OBJS)
KMOD_CFLAGS := $(shell pkg-config --cflags libkmod 2>/dev/null)
KMOD_LIBS   := $(shell pkg-config --libs libkmod 2>/dev/null || echo -lkmod)

TOOLS := tools/npu-sim-smi tools/npu-sim-load

.PHONY: tools
user: tools
tools: $(TOOLS)

$(TOOLS_BUILD)/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(KMOD_CFLAGS) -MMD -MP -c -o $@ $<

tools/npu-sim-smi: $(SMI_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

tools/npu-sim-load: $(LOAD_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(KMOD_LIBS)

-include $(SMI_OBJS:.o=.d) $(TOOLS_BUILD)/npu_sim_load.d
CLEAN_FILES += $(TOOLS)
