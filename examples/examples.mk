# Example programs (built against include/ and lib/ only).
