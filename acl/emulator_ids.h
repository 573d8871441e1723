/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the executorch-ascend authors. */
/*
 * How the backend tells the project's CANN emulator apart from real CANN:
 * the two facts the backend needs, shared with the emulator so the two cannot
 * drift. The emulator's test extras live in emulator/acl/include.
 *
 *  - The emulator's libascendcl.so exports one extra C symbol,
 *    EXECUTORCH_ASCEND_EMULATOR_SYMBOL, which real CANN never has.
 *  - The emulator's .om files begin with EXECUTORCH_ASCEND_EMU_OM_MAGIC
 *    (docs/om-format.md). Real CANN cannot run them, and the emulator runs
 *    nothing else.
 */
#ifndef EXECUTORCH_ASCEND_EMULATOR_IDS_H_
#define EXECUTORCH_ASCEND_EMULATOR_IDS_H_

/* 8 bytes at offset 0 of every emulator .om. */
#define EXECUTORCH_ASCEND_EMU_OM_MAGIC "AEMU.OM\0"
#define EXECUTORCH_ASCEND_EMU_OM_MAGIC_SIZE 8

/* Extra symbol exported by the emulator's libascendcl.so (and never by real
 * CANN): const char* aclEmuVersion(void). */
#define EXECUTORCH_ASCEND_EMULATOR_SYMBOL "aclEmuVersion"

#endif  // EXECUTORCH_ASCEND_EMULATOR_IDS_H_
