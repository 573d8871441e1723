// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ExecuTorch ScalarType <-> ACL aclDataType, for the types both sides can
// hold bit for bit. Anything else is not delegable.
#pragma once

#include <acl_api.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>

namespace executorch::backends::ascend {

// ACL_DT_UNDEFINED when ACL has no identical type.
inline aclDataType to_acl_dtype(executorch::aten::ScalarType type) {
  using executorch::aten::ScalarType;
  switch (type) {
    case ScalarType::Float:
      return ACL_FLOAT;
    case ScalarType::Half:
      return ACL_FLOAT16;
    case ScalarType::BFloat16:
      return ACL_BF16;
    case ScalarType::Double:
      return ACL_DOUBLE;
    case ScalarType::Char:
      return ACL_INT8;
    case ScalarType::Byte:
      return ACL_UINT8;
    case ScalarType::Short:
      return ACL_INT16;
    case ScalarType::Int:
      return ACL_INT32;
    case ScalarType::Long:
      return ACL_INT64;
    case ScalarType::Bool:
      return ACL_BOOL;
    case ScalarType::UInt16:
      return ACL_UINT16;
    case ScalarType::UInt32:
      return ACL_UINT32;
    case ScalarType::UInt64:
      return ACL_UINT64;
    default:
      return ACL_DT_UNDEFINED;
  }
}

// The inverse of to_acl_dtype; false when ExecuTorch has no identical type.
inline bool from_acl_dtype(aclDataType type,
                           executorch::aten::ScalarType* out) {
  using executorch::aten::ScalarType;
  constexpr ScalarType kHeld[] = {
      ScalarType::Float,  ScalarType::Half,   ScalarType::BFloat16,
      ScalarType::Double, ScalarType::Char,   ScalarType::Byte,
      ScalarType::Short,  ScalarType::Int,    ScalarType::Long,
      ScalarType::Bool,   ScalarType::UInt16, ScalarType::UInt32,
      ScalarType::UInt64};
  for (ScalarType held : kHeld) {
    if (type != ACL_DT_UNDEFINED && to_acl_dtype(held) == type) {
      *out = held;
      return true;
    }
  }
  return false;
}

// For log lines.
inline const char* acl_dtype_name(aclDataType type) {
  switch (type) {
    case ACL_FLOAT:
      return "ACL_FLOAT";
    case ACL_FLOAT16:
      return "ACL_FLOAT16";
    case ACL_BF16:
      return "ACL_BF16";
    case ACL_DOUBLE:
      return "ACL_DOUBLE";
    case ACL_INT8:
      return "ACL_INT8";
    case ACL_UINT8:
      return "ACL_UINT8";
    case ACL_INT16:
      return "ACL_INT16";
    case ACL_INT32:
      return "ACL_INT32";
    case ACL_INT64:
      return "ACL_INT64";
    case ACL_BOOL:
      return "ACL_BOOL";
    case ACL_UINT16:
      return "ACL_UINT16";
    case ACL_UINT32:
      return "ACL_UINT32";
    case ACL_UINT64:
      return "ACL_UINT64";
    default:
      return "unsupported aclDataType";
  }
}

}  // namespace executorch::backends::ascend
