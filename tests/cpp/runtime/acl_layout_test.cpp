// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Which ACL libraries the backend opens (AclLibrary::resolve, docs/runtime.md):
// CANN's split pair libacl_rt.so + libacl_mdl.so when present, else the
// compatibility libascendcl.so. ctest runs this executable once per case, each
// in its own process (ACL is resolved once per process); ACL_LAYOUT_CASE names
// the case and EMULATOR_ACL_DIR the build folder of the emulator's three
// libraries, which the test links into a fake $ASCEND_HOME_PATH/lib64.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "acl_library.h"

namespace executorch::backends::ascend {
namespace {

namespace fs = std::filesystem;

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// A fresh folder <tmp>/acl_layout_<case>_<pid>/lib64 holding symlinks to the
// emulator's libraries named in `names`.
fs::path fake_home(const std::string& label,
                   std::initializer_list<const char*> names) {
  const fs::path home =
      fs::temp_directory_path() / ("acl_layout_" + label + "_" +
                                   std::to_string(static_cast<long>(getpid())));
  fs::remove_all(home);
  fs::create_directories(home / "lib64");
  for (const char* name : names) {
    fs::create_symlink(fs::path(env("EMULATOR_ACL_DIR")) / name,
                       home / "lib64" / name);
  }
  return home;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() &&
         s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

TEST(AclLayout, OpensWhatTheRuleNames) {
  const std::string which = env("ACL_LAYOUT_CASE");
  ASSERT_FALSE(env("EMULATOR_ACL_DIR").empty()) << "EMULATOR_ACL_DIR not set";
  fs::path home;
  if (which == "home_split") {
    home =
        fake_home(which, {"libascendcl.so", "libacl_rt.so", "libacl_mdl.so"});
    setenv("ASCEND_HOME_PATH", home.c_str(), 1);
  } else if (which == "home_half") {
    // Half of the pair: the compatibility library is used instead.
    home = fake_home(which, {"libascendcl.so", "libacl_rt.so"});
    setenv("ASCEND_HOME_PATH", home.c_str(), 1);
  } else if (which == "env_half") {
    home = fake_home(which, {"libascendcl.so", "libacl_rt.so"});
    const fs::path runtime_half = home / "lib64" / "libacl_rt.so";
    setenv("EXECUTORCH_ASCEND_ACL_LIB", runtime_half.c_str(), 1);
  } else if (which != "loader_split") {
    FAIL() << "unknown ACL_LAYOUT_CASE '" << which << "'";
  }

  const AclLibrary& library = AclLibrary::get();
  const AclLibrary::Layout& layout = library.layout();
  if (which == "env_half") {
    // Named explicitly, the pair must be whole: a clear error, no fallback.
    EXPECT_FALSE(library.available());
    EXPECT_NE(library.unavailable_reason().find("libacl_mdl.so"),
              std::string::npos)
        << library.unavailable_reason();
    EXPECT_NE(library.unavailable_reason().find("the model half of"),
              std::string::npos)
        << library.unavailable_reason();
  } else {
    ASSERT_TRUE(library.available()) << library.unavailable_reason();
    EXPECT_TRUE(library.is_emulator());
    EXPECT_NE(library.api().aclmdlLoadFromMem, nullptr);
    EXPECT_NE(library.api().aclrtMalloc, nullptr);
    if (which == "home_half") {
      EXPECT_FALSE(layout.split());
      EXPECT_TRUE(ends_with(layout.runtime, "/lib64/libascendcl.so"))
          << layout.runtime;
      EXPECT_EQ(library.path(), layout.runtime);
    } else {
      EXPECT_TRUE(layout.split());
      EXPECT_TRUE(ends_with(layout.runtime, "libacl_rt.so")) << layout.runtime;
      EXPECT_TRUE(ends_with(layout.model, "libacl_mdl.so")) << layout.model;
      EXPECT_EQ(library.path(), layout.runtime + " + " + layout.model);
    }
  }
  if (!home.empty()) fs::remove_all(home);
}

}  // namespace
}  // namespace executorch::backends::ascend
