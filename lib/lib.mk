# libacl_rt: lib/libacl_rt.so and lib/libacl_rt.a.
