// Function ids in a stream against this build's dispatch slots: a trace names
// its functions in its own order (older builds ordered slots by name alone),
// and a reader maps them by name. And the slot layout that keeps a draw's
// calls on few cache lines (api/hot_functions.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "stream/call_decoder.h"
#include "strata/api/functions.h"

namespace {

using namespace strata;

TEST(FunctionTable, IdsOfAnotherOrderMapByName) {
  std::vector<std::string> names;
  for (const api::FunctionInfo& info : api::kFunctions) names.emplace_back(info.name);
  std::sort(names.begin(), names.end());  // the order traces of earlier builds have
  names.insert(names.begin() + 3, "glNotAFunctionAnyRegistryHas");
  std::string table;
  for (const std::string& name : names) (table += name) += '\n';

  stream::FunctionTable functions;
  functions.Load(table);
  ASSERT_EQ(functions.size(), names.size());
  int mapped = 0;
  for (size_t id = 0; id < names.size(); ++id) {
    EXPECT_EQ(functions.NameOf(id), names[id]);
    const int slot = functions.SlotOf(id);
    if (names[id] == "glNotAFunctionAnyRegistryHas") {
      EXPECT_EQ(slot, -1);
      continue;
    }
    ASSERT_GE(slot, 0) << names[id];
    EXPECT_STREQ(api::kFunctions[slot].name, names[id].c_str());
    ++mapped;
  }
  EXPECT_EQ(mapped, api::kFunctionCount);
  EXPECT_EQ(functions.SlotOf(names.size()), -1);  // past the table: a tracer's unknown function
}

TEST(FunctionTable, OwnTableIsSlotOrder) {
  stream::FunctionTable functions;
  functions.Load(stream::FunctionTable::OwnNames());
  ASSERT_EQ(functions.size(), static_cast<size_t>(api::kFunctionCount));
  for (int slot = 0; slot < api::kFunctionCount; ++slot) EXPECT_EQ(functions.SlotOf(slot), slot);
}

// The six calls of a typical draw group read one table entry each: hot
// slots put them on at most three 64-byte lines of a table, where slots by
// name put them on six.
TEST(FunctionTable, DrawGroupSharesFewTableLines) {
  std::set<int> lines;
  for (const char* name : {"glUseProgram", "glBindVertexArray", "glBindTexture", "glUniform2f", "glUniform4f",
                           "glDrawArrays"}) {
    const int slot = api::FindFunction(name);
    ASSERT_GE(slot, 0) << name;
    lines.insert(slot * static_cast<int>(sizeof(void*)) / 64);
  }
  EXPECT_LE(lines.size(), 3u);
}

// After the hot block, slots follow by name: every name-ordered listing of
// the rest stays as it was.
TEST(FunctionTable, SlotsAfterTheHotBlockFollowByName) {
  int first_by_name = api::kFunctionCount;
  for (int slot = api::kFunctionCount - 1; slot > 0; --slot) {
    if (std::strcmp(api::kFunctions[slot - 1].name, api::kFunctions[slot].name) > 0) {
      first_by_name = slot;
      break;
    }
  }
  EXPECT_GT(first_by_name, 0);
  EXPECT_LT(first_by_name, 128);  // the hot block takes one-byte varint ids
  EXPECT_GT(api::kFunctionCount - first_by_name, 1000);
}

}  // namespace
