//===- ExplorationTest.cpp - Options a task has never measured ------------===//

#include "TestUtils.h"
#include "tcl/Tune/Exploration.h"

#include "gtest/gtest.h"

using namespace tcl;
using namespace tcl::testing;

/// A register tile of `rows` x `vectors` with a bound on the accumulators,
/// and a loop order.
static const char *kScript = R"mlir(
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly})
      attributes {tcl.constraints = ["rows * vectors <= 28"]} {
    %rows = transform.tune.knob<"rows"> options = [1, 7, 14] -> !transform.param<i64>
    %vectors = transform.tune.knob<"vectors"> options = [1, 2, 4] -> !transform.param<i64>
    %order = transform.tune.knob<"order"> options = [0, 1] -> !transform.param<i64>
    transform.yield
  }
})mlir";

namespace {
class ExplorationTest : public ::testing::Test {
protected:
  void SetUp() override {
    module = parse(*context, kScript);
    space = *Space::fromScript(*module);
  }

  /// The schedules of `untried`, in order.
  static std::vector<Assignment>
  schedules(const std::vector<UntriedOption> &untried) {
    std::vector<Assignment> result;
    for (const UntriedOption &option : untried)
      result.push_back(option.schedule);
    return result;
  }

  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Space space;
};
} // namespace

TEST_F(ExplorationTest, EachUntriedOptionNextToTheBestThatTakesIt) {
  // Measured: 7 x 4 (the best) and 1 x 2, both in order 0. Untried: 14 rows,
  // 1 vector, order 1. 14 x 4 breaks the bound, so 14 rows go next to the
  // second seed.
  std::vector<Assignment> measured = {{1, 2, 0}, {0, 1, 0}};
  std::vector<UntriedOption> untried =
      untriedOptionNeighbours(space, measured, measured);
  std::vector<Assignment> expected = {{2, 1, 0}, {1, 0, 0}, {1, 2, 1}};
  EXPECT_EQ(schedules(untried), expected);
  std::vector<unsigned> knobs;
  for (const UntriedOption &option : untried) {
    knobs.push_back(option.knob);
    EXPECT_TRUE(space.isLegal(option.schedule));
  }
  EXPECT_EQ(knobs, (std::vector<unsigned>{0, 1, 2}));
}

TEST_F(ExplorationTest, NothingOnceEveryOptionWasMeasured) {
  std::vector<Assignment> measured = {{0, 0, 0}, {1, 1, 1}, {2, 1, 0}, {0, 2, 1}};
  EXPECT_TRUE(untriedOptionNeighbours(space, measured, measured).empty());
}

TEST_F(ExplorationTest, AnOptionNoSeedCanTakeIsLeftOut) {
  // Only 7 x 4 is known: 14 rows fit next to no seed.
  std::vector<Assignment> seeds = {{1, 2, 0}};
  std::vector<Assignment> expected = {{0, 2, 0}, {1, 0, 0}, {1, 1, 0}, {1, 2, 1}};
  EXPECT_EQ(schedules(untriedOptionNeighbours(space, seeds, seeds)), expected);
  EXPECT_TRUE(untriedOptionNeighbours(space, {}, seeds).empty());
}

TEST_F(ExplorationTest, InfluenceIsTheShareOfVarianceAKnobExplains) {
  // Rows decide the latency (1 row: 8 ms, 7 rows: 2 ms); vectors split each
  // row count evenly, and order is measured with one option only.
  std::vector<std::pair<Assignment, double>> timed = {
      {{0, 0, 0}, 8e-3}, {{0, 1, 0}, 8e-3}, {{1, 0, 0}, 2e-3}, {{1, 1, 0}, 2e-3}};
  std::vector<double> influence = knobInfluence(space, timed);
  ASSERT_EQ(influence.size(), 3u);
  EXPECT_NEAR(influence[0], 1.0, 1e-9);
  EXPECT_NEAR(influence[1], 0.0, 1e-9);
  EXPECT_NEAR(influence[2], 0.0, 1e-9);
  // Nothing to explain yet.
  EXPECT_EQ(knobInfluence(space, {{{0, 0, 0}, 8e-3}}),
            (std::vector<double>{0, 0, 0}));
}

TEST_F(ExplorationTest, TheMostInfluentialKnobsOptionsComeFirst) {
  std::vector<UntriedOption> untried = {
      {2, {1, 2, 1}}, {0, {2, 1, 0}}, {1, {1, 0, 0}}, {0, {0, 2, 0}}};
  std::mt19937_64 random(7);
  orderForExploration(untried, {0.2, 0.7, 0.0}, random);
  std::vector<unsigned> knobs;
  for (const UntriedOption &option : untried)
    knobs.push_back(option.knob);
  EXPECT_EQ(knobs, (std::vector<unsigned>{1, 0, 0, 2}));
}
