// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The source of the emulator's libacl_rt.so and libacl_mdl.so: nothing.
// Current CANN splits ACL into libacl_rt.so (aclInit, aclrt*, data buffers)
// and libacl_mdl.so (aclmdl*), and keeps libascendcl.so as a compatibility
// library. The emulator has one implementation with one process state, so
// both names are empty libraries that depend on libascendcl.so: dlsym() on
// their handles finds every function there, through the dependency
// (docs/emulator.md, "Library layouts"). Two copies of the implementation
// would hold two states (an aclInit in one, a model load in the other).
