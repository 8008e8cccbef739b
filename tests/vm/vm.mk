# VM integration tests (Check), run in the guest by tests/vm/run-in-guest.
