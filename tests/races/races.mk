# The race catalogue (tests/races/README.md): small programs, each run by
# tests/vm/test_races under NPU_SIM_CHECK=races.  Built -O0 -g so the
# reports name exact lines.
RACE_PROG_NAMES := $(sort $(basename $(notdir $(wildcard tests/races/[rc][0-9]*.c))))
RACE_PROG_DIR := $(BUILD)/tests/races
RACE_PROGS := $(addprefix $(RACE_PROG_DIR)/,$(RACE_PROG_NAMES))

user: $(RACE_PROGS)
vm-tests: $(RACE_PROGS)

$(RACE_PROGS): $(RACE_PROG_DIR)/%: tests/races/%.c tests/races/race_prog.h $(VM_TEST_HDRS) $(LIBACL_RT_SO)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -O0 -g -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE $(LDFLAGS) -o $@ $< \
		-L$(LIBACL_RT_DIR) -lacl_rt -Wl,-rpath,'$$ORIGIN/../../lib'
