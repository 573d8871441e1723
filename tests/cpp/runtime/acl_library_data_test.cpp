// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The names of the ACL search rule come from
// src/executorch_ascend/acl_library.json (the header runtime/CMakeLists.txt
// generates), which toolchain/cann.py reads too
// (tests/python/test_acl_library_data.py): AclLibrary::resolve() follows them.
// resolve() only looks at the environment and the files; it loads nothing.
#include "acl_library_data.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "acl_library.h"

namespace executorch::backends::ascend {
namespace {

namespace fs = std::filesystem;

// Sets or unsets a variable for one test, and restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    value != nullptr ? setenv(name, value, 1) : unsetenv(name);
  }
  ~ScopedEnv() { had_ ? setenv(name_, old_.c_str(), 1) : unsetenv(name_); }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

fs::path fresh_home(const std::string& label) {
  const fs::path home =
      fs::temp_directory_path() / ("acl_names_" + label + "_" +
                                   std::to_string(static_cast<long>(getpid())));
  fs::remove_all(home);
  fs::create_directories(home / acl_names::kLibraryFolder);
  return home;
}

TEST(AclLibraryData, TheNamesAreCanns) {
  EXPECT_STREQ(acl_names::kExplicitVariable, "EXECUTORCH_ASCEND_ACL_LIB");
  ASSERT_EQ(std::size(acl_names::kHomeVariables), 2u);
  EXPECT_STREQ(acl_names::kHomeVariables[0], "ASCEND_HOME_PATH");
  EXPECT_STREQ(acl_names::kHomeVariables[1], "ASCEND_TOOLKIT_HOME");
  EXPECT_STREQ(acl_names::kSingleLibrary, "libascendcl.so");
  EXPECT_STREQ(acl_names::kRuntimeLibrary, "libacl_rt.so");
  EXPECT_STREQ(acl_names::kModelLibrary, "libacl_mdl.so");
}

TEST(AclLibraryData, ResolveFollowsTheData) {
  ScopedEnv no_explicit(acl_names::kExplicitVariable, nullptr);
  ScopedEnv no_home(acl_names::kHomeVariables[0], nullptr);
  // The second home variable, with only the single library: it.
  const fs::path home = fresh_home("single");
  ScopedEnv second(acl_names::kHomeVariables[1], home.c_str());
  const fs::path folder = home / acl_names::kLibraryFolder;
  AclLibrary::Layout layout = AclLibrary::resolve();
  EXPECT_EQ(layout.runtime, (folder / acl_names::kSingleLibrary).string());
  EXPECT_FALSE(layout.split());
  // Both halves of the split layout there: the pair.
  std::ofstream(folder / acl_names::kRuntimeLibrary).put('x');
  std::ofstream(folder / acl_names::kModelLibrary).put('x');
  layout = AclLibrary::resolve();
  EXPECT_EQ(layout.runtime, (folder / acl_names::kRuntimeLibrary).string());
  EXPECT_EQ(layout.model, (folder / acl_names::kModelLibrary).string());
  // No home at all: the loader's path, the pair else the single library.
  {
    ScopedEnv none(acl_names::kHomeVariables[1], nullptr);
    layout = AclLibrary::resolve();
    EXPECT_EQ(layout.runtime, acl_names::kRuntimeLibrary);
    EXPECT_EQ(layout.model, acl_names::kModelLibrary);
    EXPECT_EQ(layout.fallback, acl_names::kSingleLibrary);
  }
  // The explicit variable wins over the homes.
  ScopedEnv explicit_path(acl_names::kExplicitVariable, "/opt/x/mine.so");
  EXPECT_EQ(AclLibrary::resolve().runtime, "/opt/x/mine.so");
  fs::remove_all(home);
}

}  // namespace
}  // namespace executorch::backends::ascend
