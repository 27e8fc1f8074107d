//===- EvolutionTest.cpp - Mutation, crossover and the search -------------===//

#include "TestUtils.h"
#include "tcl/Tune/Evolution.h"

#include "gtest/gtest.h"

using namespace tcl;
using namespace tcl::testing;

/// Three knobs, 6 x 6 x 2 schedules, half of them illegal.
static const char *kScript = R"mlir(
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly})
      attributes {tcl.constraints = ["m * n <= 64", "v == 0 || n % 4 == 0"]} {
    %m = transform.tune.knob<"m"> options = [1, 2, 4, 8, 16, 32] -> !transform.param<i64>
    %n = transform.tune.knob<"n"> options = [1, 2, 4, 8, 16, 32] -> !transform.param<i64>
    %v = transform.tune.knob<"v"> options = [0, 1] -> !transform.param<i64>
    transform.yield
  }
})mlir";

namespace {
class EvolutionTest : public ::testing::Test {
protected:
  void SetUp() override {
    module = parse(*context, kScript);
    space = *Space::fromScript(*module);
  }
  /// Value of knob `knob` in `assignment`.
  int64_t value(const Assignment &assignment, size_t knob) const {
    return (*space.knobs()[knob].integerOptions)[assignment[knob]];
  }

  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Space space;
};
} // namespace

TEST_F(EvolutionTest, MutantsAreLegalNeighbours) {
  std::mt19937_64 random(1);
  Assignment parent = {2, 2, 1}; // m=4, n=4, v=1
  ASSERT_TRUE(space.isLegal(parent));
  for (int i = 0; i < 200; ++i) {
    std::optional<Assignment> child = mutate(space, parent, random);
    ASSERT_TRUE(child);
    EXPECT_TRUE(space.isLegal(*child));
    EXPECT_NE(*child, parent);
    unsigned changed = 0;
    for (size_t knob = 0; knob < parent.size(); ++knob)
      changed += (*child)[knob] != parent[knob];
    EXPECT_LE(changed, 2u);
  }
}

TEST_F(EvolutionTest, CrossoverTakesEveryKnobFromAParent) {
  std::mt19937_64 random(2);
  Assignment first = {0, 5, 0}, second = {5, 0, 0}; // (1, 32) and (32, 1)
  for (int i = 0; i < 100; ++i) {
    std::optional<Assignment> child = crossover(space, first, second, random);
    ASSERT_TRUE(child);
    EXPECT_TRUE(space.isLegal(*child));
    for (size_t knob = 0; knob < first.size(); ++knob)
      EXPECT_TRUE((*child)[knob] == first[knob] || (*child)[knob] == second[knob]);
    // (32, 32) breaks m * n <= 64: never produced.
    EXPECT_FALSE(value(*child, 0) == 32 && value(*child, 1) == 32);
  }
}

TEST_F(EvolutionTest, SearchFindsWhatTheScorerLikes) {
  // The scorer prefers large m * n with v = 1: the best legal schedules
  // have m * n = 64, n % 4 == 0 and v = 1.
  auto score = [&](llvm::ArrayRef<Assignment> schedules) {
    std::vector<float> scores;
    for (const Assignment &schedule : schedules)
      scores.push_back(static_cast<float>(value(schedule, 0) * value(schedule, 1) +
                                          100 * value(schedule, 2)));
    return scores;
  };
  EvolutionOptions options;
  options.population = 16;
  options.generations = 4;
  std::mt19937_64 random(3);
  std::vector<ScoredSchedule> best =
      evolve(space, {}, score, {}, 5, options, random);
  ASSERT_EQ(best.size(), 5u);
  for (size_t i = 1; i < best.size(); ++i)
    EXPECT_GE(best[i - 1].score, best[i].score);
  EXPECT_EQ(best.front().score, 164.0f);
  for (const ScoredSchedule &schedule : best)
    EXPECT_TRUE(space.isLegal(schedule.assignment));
}

TEST_F(EvolutionTest, SearchSkipsMeasuredSchedulesAndIsDeterministic) {
  auto score = [&](llvm::ArrayRef<Assignment> schedules) {
    std::vector<float> scores;
    for (const Assignment &schedule : schedules)
      scores.push_back(static_cast<float>(value(schedule, 0) * value(schedule, 1)));
    return scores;
  };
  std::set<std::string> measured = {"m=8,n=8,v=0", "m=8,n=8,v=1",
                                    "m=16,n=4,v=0", "m=16,n=4,v=1"};
  EvolutionOptions options;
  options.population = 32;
  std::mt19937_64 first(4), second(4);
  std::vector<ScoredSchedule> a =
      evolve(space, {{3, 3, 0}}, score, measured, 8, options, first);
  std::vector<ScoredSchedule> b =
      evolve(space, {{3, 3, 0}}, score, measured, 8, options, second);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].assignment, b[i].assignment);
    EXPECT_FALSE(measured.count(space.format(a[i].assignment)));
  }
}
