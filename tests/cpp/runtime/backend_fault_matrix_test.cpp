// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The fault matrix: every call the backend makes to an ACL function, in
// init, execute and destroy, made to fail in turn. The functions come from
// the one list, acl/acl_functions.def (its RUNTIME and RUNTIME_OPTIONAL rows
// that can fail by injection); the calls from a clean run of each phase of
// each program below, counted by the emulator (aclEmuGetCallCount). So a new
// ACL call in the backend, or a new code path, is in the matrix without
// anyone writing a case for it.
//
// What each failure must give:
//   init     an Error, a log naming the call in the backend's own words,
//            nothing alive afterwards, no named data held;
//   execute  an Error and such a log; the same delegate computes right at
//            the next execute;
//   destroy  such a log; everything else released, and after aclFinalize
//            (which frees what a failed release left) 0 live objects;
// and after every case a fresh delegate of the program computes right.
#include <executorch/runtime/backend/options.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "emulator_fixture.h"
#include "external_om.h"
#include "log_capture.h"
#include "om_builder.h"

namespace executorch::backends::ascend::testing {
namespace {

using executorch::aten::ScalarType;
using executorch::runtime::BackendOptions;
using executorch::runtime::DelegateHandle;
using executorch::runtime::Error;
using executorch::runtime::Result;

// acl_functions.def, row by row.
struct Row {
  const char* name;
  // RUNTIME or RUNTIME_OPTIONAL (RUNTIME_PROF rows are called only with an
  // event tracer, which the matrix has not: profiling_test.cpp covers them).
  bool backend_calls;
  bool faultable;  // FAULTS
};
constexpr Row kAclFunctions[] = {
#define ACL_FUNCTION(ret, name, params, user, faults) \
  {#name,                                             \
   std::string_view(#user) == "RUNTIME" ||            \
       std::string_view(#user) == "RUNTIME_OPTIONAL", \
   std::string_view(#faults) == "FAULTS"},
#include "acl_functions.def"
#undef ACL_FUNCTION
};

// Called once per process, when the backend first opens ACL, not by any
// delegate: their faults are runtime_acl_retry's (a failed first use is
// retried at the next load).
const std::set<std::string> kFirstUseOnly = {"aclInit", "aclrtGetDeviceCount"};
// Calls of modes the matrix's programs do not run: aclUpdateDataBuffer
// binds tensors in RC mode only (its failure:
// BackendExecute.DeviceRunModeBindsTensorsInPlaceWithoutCopies);
// aclmdlExecute is the profiled run's only (an event tracer,
// backend_etdump_test), checked and logged like aclmdlExecuteAsync;
// aclmdlGetInputDimsV2 is read only for a YUV420SP AIPP frame
// (tests/python/test_aipp_dynamic.py), and when it fails the frame's size check
// refuses the model (InvalidProgram).
const std::set<std::string> kOtherModes = {
    "aclUpdateDataBuffer", "aclmdlExecute", "aclmdlGetInputDimsV2"};
// Probes whose failure is an answer: aclmdlGetInputIndexByName failing means
// "no gear input", so a model without gears loads and runs as before.
const std::set<std::string> kProbes = {"aclmdlGetInputIndexByName"};

constexpr char kScaleKey[] = "ascend/om/scale_relu";
constexpr char kSmallKey[] = "ascend/om/small";
constexpr char kGearsKey[] = "ascend/om/batch_scale";
constexpr char kDimsKey[] = "ascend/om/batch_scale_dims";
constexpr char kStateKey[] = "ascend/om/accumulate";
constexpr char kAippKey[] = "ascend/om/dynamic_aipp";

enum class Model { kAdd, kScale, kSmall, kGears, kDims, kState, kAipp };
struct Program {
  const char* name;
  Model model;
  const char* workspace;  // the load-time "workspace" option
};
// Between them these reach every load path (plain, external weights through
// a config handle, caller-owned work and weight memory, a shared work
// buffer), shape gears and device state.
constexpr Program kPrograms[] = {
    {"add", Model::kAdd, "acl"},
    {"external weight", Model::kScale, "acl"},
    {"external weight, delegate workspace", Model::kScale, "delegate"},
    {"external weight, shared workspace", Model::kScale, "shared"},
    {"inline weight, delegate workspace", Model::kSmall, "delegate"},
    {"batch gears", Model::kGears, "acl"},
    {"dims gears", Model::kDims, "acl"},
    {"device state", Model::kState, "acl"},
    {"dynamic AIPP", Model::kAipp, "acl"},
};

enum class Phase { kInit, kExecute, kDestroy };
const char* phase_name(Phase phase) {
  return phase == Phase::kInit      ? "init"
         : phase == Phase::kExecute ? "execute"
                                    : "destroy";
}

// A call that releases an object: when it fails, the object stays.
bool is_release(const std::string& function) {
  for (const char* verb : {"Destroy", "Free", "Unload", "Reset"}) {
    if (function.find(verb) != std::string::npos) return true;
  }
  return false;
}

using Counts = std::map<std::string, uint64_t>;

class BackendFaultMatrix : public AscendEmulatorTest {
 protected:
  static void SetUpTestSuite() {
    AscendEmulatorTest::SetUpTestSuite();
    std::string error;
    scale_om_ = new std::vector<uint8_t>(scale_relu_om());
    small_om_ = new std::vector<uint8_t>(small_inline_om());
    gears_om_ = new std::vector<uint8_t>(
        compile_with_atc(batch_scale_model_onnx(), "batch_scale", &error,
                         "--input_shape=x:-1,3 --dynamic_batch_size=1,2,4"));
    dims_om_ = new std::vector<uint8_t>(compile_with_atc(
        batch_scale_model_onnx(), "batch_scale_dims", &error,
        "--input_shape=x:-1,3 --input_format=ND '--dynamic_dims=1;2;4'"));
    state_om_ = new std::vector<uint8_t>(
        compile_with_atc(accumulate_model_onnx(), "accumulate", &error));
    aipp_om_ = new std::vector<uint8_t>(dynamic_aipp_om(&error));
  }
  static void TearDownTestSuite() {
    delete scale_om_;
    delete small_om_;
    delete gears_om_;
    delete dims_om_;
    delete state_om_;
    delete aipp_om_;
    AscendEmulatorTest::TearDownTestSuite();
  }

  void SetUp() override {
    AscendEmulatorTest::SetUp();
    ASSERT_FALSE(gears_om_->empty());
    ASSERT_FALSE(dims_om_->empty());
    ASSERT_FALSE(state_om_->empty());
    ASSERT_FALSE(aipp_om_->empty());
    data_.add(kScaleKey, *scale_om_);
    data_.add(kSmallKey, *small_om_);
    data_.add(kWeightKey, weight_bytes());
    data_.add(kGearsKey, *gears_om_);
    data_.add(kDimsKey, *dims_om_);
    data_.add(kStateKey, *state_om_);
    data_.add(kAippKey, *aipp_om_);
  }

  // Calls so far of every faultable function the backend calls.
  Counts calls() const {
    Counts counts;
    for (const Row& row : kAclFunctions) {
      if (row.backend_calls && row.faultable) {
        counts[row.name] = hooks_.calls(row.name);
      }
    }
    return counts;
  }
  static Counts since(const Counts& before, const Counts& after) {
    Counts made;
    for (const auto& [name, count] : after) {
      if (count > before.at(name)) made[name] = count - before.at(name);
    }
    return made;
  }

  Result<DelegateHandle*> load(const Program& p) {
    BlobSpec spec;
    switch (p.model) {
      case Model::kAdd:
        spec = add_blob();
        break;
      case Model::kScale:
        spec = external_blob(kScaleKey);
        break;
      case Model::kSmall:
        spec.om_key = kSmallKey;
        break;
      case Model::kGears:
        spec.om_key = kGearsKey;
        break;
      case Model::kDims:
        spec.om_key = kDimsKey;
        break;
      case Model::kState:
        spec.om_key = kStateKey;
        spec.states.push_back({"total", 1, 1, 6 * sizeof(float), ""});
        break;
      case Model::kAipp:
        spec.om_key = kAippKey;
        break;
    }
    BackendOptions<1> options;
    EXPECT_EQ(options.set_option("workspace", p.workspace), Error::Ok);
    auto view = options.view();
    // Each delegate in an allocator of its own: the cases load hundreds.
    auto handle =
        init(spec, {view.data(), view.size()}, another_arena(4096).get());
    if (handle.ok()) executes_at_load_[*handle] = hooks_.stats().executes;
    return handle;
  }

  // One execute of the dynamic AIPP model: a 4x4 RGB888_U8 frame and the
  // parameters (executorch_ascend.aipp's tensor) that give its pixels as
  // they are (no crop, mean 0, min 0, var_reci 1).
  Error run_aipp(DelegateHandle* handle, bool check) {
    HostTensor frame(ScalarType::Byte, {1, 4, 4, 3});
    for (size_t i = 0; i < 48; ++i) {
      frame.bytes()[i] = static_cast<uint8_t>(i * 5 + 3);
    }
    HostTensor params(ScalarType::Float, {2, 24});
    std::fill(params.floats(), params.floats() + 48, 0.0f);
    params.floats()[0] = ACL_RGB888_U8;
    params.floats()[1] = 4;  // w
    params.floats()[2] = 4;  // h
    for (int c = 0; c < 4; ++c) params.floats()[24 + 18 + c] = 1.0f;
    HostTensor out(ScalarType::Float, {1, 3, 4, 4});
    std::vector<executorch::runtime::EValue*> args = {
        frame.evalue(), params.evalue(), out.evalue()};
    const Error error = execute(handle, args);
    if (error != Error::Ok || !check) return error;
    for (int c = 0; c < 3; ++c) {
      for (int i = 0; i < 16; ++i) {
        const float want = static_cast<float>(frame.bytes()[i * 3 + c]);
        EXPECT_EQ(out.floats()[c * 16 + i], want)
            << "pixel " << i << " c " << c;
        if (out.floats()[c * 16 + i] != want) return Error::Internal;
      }
    }
    return Error::Ok;
  }

  // One execute of `p`'s delegate; with `check`, its outputs must be right.
  Error run(const Program& p, DelegateHandle* handle, bool check) {
    if (p.model == Model::kAipp) return run_aipp(handle, check);
    const bool gears = p.model == Model::kGears || p.model == Model::kDims;
    const bool large = p.model == Model::kScale;
    const int rows = large ? kRows : 2;
    const int cols = large ? kCols : 3;
    const size_t n = static_cast<size_t>(rows) * cols;
    HostTensor x(ScalarType::Float, {rows, cols});
    HostTensor y(ScalarType::Float, {rows, cols});
    // A gear model's output is sized for its largest gear (4).
    HostTensor out(ScalarType::Float, {gears ? 4 : rows, cols}, {},
                   /*dynamic_bound=*/gears);
    for (size_t i = 0; i < n; ++i) {
      x.floats()[i] = 0.25f * static_cast<float>(i % 11) - 1.0f;
      y.floats()[i] = 2.0f - 0.5f * static_cast<float>(i % 5);
    }
    std::vector<executorch::runtime::EValue*> args = {x.evalue()};
    if (p.model == Model::kAdd) args.push_back(y.evalue());
    args.push_back(out.evalue());
    const Error error = execute(handle, args);
    if (error != Error::Ok || !check) return error;
    // The running sum has taken x once per model run since the load.
    const float runs = static_cast<float>(hooks_.stats().executes -
                                          executes_at_load_.at(handle));
    for (size_t i = 0; i < n; ++i) {
      const float xi = x.floats()[i];
      float want = 0.0f;
      switch (p.model) {
        case Model::kAdd:
          want = xi + y.floats()[i];
          break;
        case Model::kScale:
        case Model::kSmall:
          want = std::max(0.0f, xi * weight_at(i));
          break;
        case Model::kGears:
        case Model::kDims:
          want = 3.0f * xi;
          break;
        case Model::kState:
          want = 2.0f * runs * xi;
          break;
        case Model::kAipp:
          break;
      }
      EXPECT_EQ(out.floats()[i], want) << p.name << " element " << i;
      if (out.floats()[i] != want) return Error::Internal;
    }
    return Error::Ok;
  }

  // A fresh delegate of `p` loads and computes right; destroyed again.
  void expect_program_runs(const Program& p, const std::string& where) {
    auto handle = load(p);
    ASSERT_TRUE(handle.ok()) << where;
    EXPECT_EQ(run(p, *handle, /*check=*/true), Error::Ok) << where;
    destroy(*handle);
  }

  // The log names `function` in the backend's own words, not only inside
  // the emulator's message it quotes ("aclrtMalloc: injected fault ...").
  static void expect_named(std::string log, const std::string& function,
                           const std::string& where) {
    const std::string quoted = function + ": injected fault";
    for (size_t at = log.find(quoted); at != std::string::npos;
         at = log.find(quoted)) {
      log.erase(at, quoted.size());
    }
    EXPECT_NE(log.find(function), std::string::npos)
        << where << ": no log line names " << function << "; the log was:\n"
        << log;
  }

  // The calls phase `phase` of `p` makes, from a clean run.
  Counts phase_calls(const Program& p, Phase phase) {
    Counts before = calls();
    auto handle = load(p);
    EXPECT_TRUE(handle.ok()) << p.name;
    if (!handle.ok()) return {};
    if (phase == Phase::kInit) {
      const Counts made = since(before, calls());
      destroy(*handle);
      return made;
    }
    if (phase == Phase::kExecute) {
      before = calls();
      EXPECT_EQ(run(p, *handle, true), Error::Ok) << p.name;
      const Counts made = since(before, calls());
      destroy(*handle);
      return made;
    }
    before = calls();
    destroy(*handle);
    return since(before, calls());
  }

  // Fails call `k` of `function` in `phase` of `p` and checks the outcome.
  void fail_one_call(const Program& p, Phase phase, const std::string& function,
                     uint64_t k, LogCapture& log) {
    const std::string where = std::string(p.name) + ", " + phase_name(phase) +
                              ", " + function + " call " + std::to_string(k);
    SCOPED_TRACE(where);
    DelegateHandle* handle = nullptr;
    if (phase != Phase::kInit) {
      auto loaded = load(p);
      ASSERT_TRUE(loaded.ok());
      handle = *loaded;
    }
    (void)log.take();
    hooks_.inject(function.c_str(), static_cast<int>(k), ACL_ERROR_RT_FAILURE);
    if (phase == Phase::kInit) {
      auto loaded = load(p);
      hooks_.clear();
      if (loaded.ok() && kProbes.count(function) != 0) {
        EXPECT_EQ(run(p, *loaded, true), Error::Ok);
        destroy(*loaded);
      } else {
        EXPECT_FALSE(loaded.ok()) << "init succeeded";
        expect_named(log.take(), function, where);
      }
      EXPECT_EQ(data_.outstanding(), 0);
    } else if (phase == Phase::kExecute) {
      const Error error = run(p, handle, false);
      hooks_.clear();
      EXPECT_NE(error, Error::Ok) << "execute succeeded";
      expect_named(log.take(), function, where);
      EXPECT_EQ(run(p, handle, true), Error::Ok) << "not usable afterwards";
      destroy(handle);
    } else {
      destroy(handle);
      hooks_.clear();
      expect_named(log.take(), function, where);
    }
    // The strict aclFinalize fails on anything left alive (config handles
    // included) and frees it, as a process exit would. Only a failed release
    // may leave something: its own object; and a destroy whose context
    // cannot be made current leaves the model and its context (ACL unloads a
    // model only in the context that loaded it; BackendDestroy has the
    // exact counts).
    const aclError finalized = hooks_.finalize_and_reinit();
    const bool may_leave =
        is_release(function) ||
        (phase == Phase::kDestroy && function == "aclrtSetCurrentContext");
    if (!may_leave) {
      EXPECT_EQ(finalized, ACL_SUCCESS) << "objects left alive (on stderr)";
    }
    expect_nothing_alive(hooks_.stats());
    expect_program_runs(p, where);
  }

  void run_phase(Phase phase) {
    LogCapture log;
    size_t cases = 0;
    for (const Program& p : kPrograms) {
      const Counts made = phase_calls(p, phase);
      ASSERT_FALSE(made.empty())
          << p.name << " made no ACL call in " << phase_name(phase);
      for (const auto& [function, count] : made) {
        for (uint64_t k = 0; k < count; ++k) {
          fail_one_call(p, phase, function, k, log);
          ++cases;
          if (HasFatalFailure()) return;
        }
      }
    }
    std::printf("[fault matrix] %s: %zu cases\n", phase_name(phase), cases);
  }

  inline static std::vector<uint8_t>* scale_om_ = nullptr;
  inline static std::vector<uint8_t>* small_om_ = nullptr;
  inline static std::vector<uint8_t>* gears_om_ = nullptr;
  inline static std::vector<uint8_t>* dims_om_ = nullptr;
  inline static std::vector<uint8_t>* state_om_ = nullptr;
  inline static std::vector<uint8_t>* aipp_om_ = nullptr;
  std::map<DelegateHandle*, uint64_t> executes_at_load_;
};

TEST_F(BackendFaultMatrix, EveryInitCallFailsCleanly) {
  run_phase(Phase::kInit);
}

TEST_F(BackendFaultMatrix, EveryExecuteCallFailsCleanly) {
  run_phase(Phase::kExecute);
}

TEST_F(BackendFaultMatrix, EveryDestroyCallFailsCleanly) {
  run_phase(Phase::kDestroy);
}

// The programs reach every faultable function the backend calls, so none
// escapes the matrix; the first-use calls are runtime_acl_retry's.
TEST_F(BackendFaultMatrix, ProgramsReachEveryListedCall) {
  std::set<std::string> reached;
  std::printf("[fault matrix] calls per program (init / execute / destroy)\n");
  for (const Program& p : kPrograms) {
    std::map<std::string, std::vector<uint64_t>> table;
    for (Phase phase : {Phase::kInit, Phase::kExecute, Phase::kDestroy}) {
      for (const auto& [function, count] : phase_calls(p, phase)) {
        reached.insert(function);
        auto& row = table[function];
        row.resize(3);
        row[static_cast<int>(phase)] = count;
      }
    }
    std::printf("  %s:", p.name);
    for (const auto& [function, row] : table) {
      std::printf(" %s %llu/%llu/%llu", function.c_str(),
                  static_cast<unsigned long long>(row[0]),
                  static_cast<unsigned long long>(row[1]),
                  static_cast<unsigned long long>(row[2]));
    }
    std::printf("\n");
  }
  for (const Row& row : kAclFunctions) {
    if (!row.backend_calls || !row.faultable) continue;
    if (kFirstUseOnly.count(row.name) != 0 ||
        kOtherModes.count(row.name) != 0) {
      EXPECT_EQ(reached.count(row.name), 0u) << row.name;
    } else {
      EXPECT_EQ(reached.count(row.name), 1u)
          << row.name << " is a RUNTIME row no program of the matrix calls";
    }
  }
}

}  // namespace
}  // namespace executorch::backends::ascend::testing
