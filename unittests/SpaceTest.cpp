//===- SpaceTest.cpp - Knobs, assignments and concretization --------------===//

#include "TestUtils.h"
#include "tcl/Space/Space.h"

#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"

#include "gtest/gtest.h"

#include <set>

using namespace tcl;
using namespace tcl::testing;

static const char *kScript = R"mlir(
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.tune.knob<"a"> options = [1, 2, 4] -> !transform.param<i64>
    %b = transform.tune.knob<"b"> = 3 from options = [3, 5] -> !transform.param<i64>
    %a2 = transform.tune.knob<"a"> options = [1, 2, 4] -> !transform.param<i64>
    transform.yield
  }
})mlir";

namespace {
class SpaceTest : public ::testing::Test {
protected:
  void SetUp() override {
    module = parse(*context, kScript);
    context->getDiagEngine().registerHandler([this](mlir::Diagnostic &diag) {
      lastError = diag.str();
    });
    space = *Space::fromScript(*module);
  }
  mlir::InFlightDiagnostic error() {
    return mlir::emitError(mlir::UnknownLoc::get(context.get()));
  }

  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Space space;
  std::string lastError;
};
} // namespace

TEST_F(SpaceTest, KnobsWithOneNameAreOneKnob) {
  ASSERT_EQ(space.knobs().size(), 2u);
  EXPECT_EQ(space.knobs()[0].name, "a");
  EXPECT_FALSE(space.knobs()[0].selected.has_value());
  EXPECT_EQ(space.knobs()[1].selected, 0u);
  EXPECT_EQ(space.size(), 6u);
}

TEST_F(SpaceTest, AssignmentsParseAndFormat) {
  Assignment assignment = *space.parseAssignment({"a=4"}, std::nullopt,
                                                 [&] { return error(); });
  EXPECT_EQ(assignment, (Assignment{2, 0})); // b keeps its selected 3
  EXPECT_EQ(space.format(assignment), "a=4,b=3");
  EXPECT_TRUE(failed(space.parseAssignment({"a=3"}, std::nullopt,
                                           [&] { return error(); })));
  EXPECT_NE(lastError.find("options: 1, 2, 4"), std::string::npos);
  EXPECT_TRUE(failed(
      space.parseAssignment({}, std::nullopt, [&] { return error(); })));
  EXPECT_NE(lastError.find("\"a\" has no value"), std::string::npos);
}

TEST_F(SpaceTest, SeededDrawsAreReproducibleAndCoverTheOptions) {
  EXPECT_EQ(space.sample(11), space.sample(11));
  std::set<unsigned> seen;
  for (uint64_t seed = 0; seed < 64; ++seed) {
    Assignment drawn = *space.sample(seed);
    ASSERT_LT(drawn[0], 3u);
    ASSERT_LT(drawn[1], 2u);
    seen.insert(drawn[0]);
  }
  EXPECT_EQ(seen.size(), 3u);
  // Explicit items win over the draw.
  Assignment mixed = *space.parseAssignment({"b=5"}, 11, [&] { return error(); });
  EXPECT_EQ(mixed[1], 1u);
}

TEST_F(SpaceTest, ConcretizeSelectsEveryOccurrence) {
  space.concretize(*module, Assignment{1, 1});
  std::vector<std::string> selected;
  module->walk([&](mlir::transform::tune::KnobOp knob) {
    selected.push_back(formatOption(knob.getSelectedAttr()));
  });
  EXPECT_EQ(selected, (std::vector<std::string>{"2", "5", "2"}));
  // The concrete script reads back as a space whose knobs are all selected.
  Space reread = *Space::fromScript(*module);
  EXPECT_EQ(reread.knobs()[0].selected, 1u);
}

static const char *kConstrainedScript = R"mlir(
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly})
      attributes {tcl.constraints = ["m * n <= 8", "n == 1 || m % 2 == 0"]} {
    %m = transform.tune.knob<"m"> options = [1, 2, 3, 4] -> !transform.param<i64>
    %n = transform.tune.knob<"n"> options = [1, 2, 4] -> !transform.param<i64>
    transform.yield
  }
})mlir";

TEST(SpaceConstraints, CountSampleAndRejectIllegalSchedules) {
  auto context = makeContext();
  std::string lastError;
  context->getDiagEngine().registerHandler(
      [&](mlir::Diagnostic &diag) { lastError = diag.str(); });
  auto module = parse(*context, kConstrainedScript);
  Space space = *Space::fromScript(*module);
  ASSERT_EQ(space.constraints().size(), 2u);
  EXPECT_EQ(space.size(), 12u);
  // Legal (m, n): n=1 with any m (4); n=2 with m in {2, 4} (2); n=4 with
  // m=2 (1).
  EXPECT_EQ(space.countLegal(), 7u);
  EXPECT_EQ(space.countLegal(/*cap=*/3), 3u);
  std::set<Assignment> drawn;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Assignment assignment = *space.sample(seed);
    EXPECT_TRUE(space.isLegal(assignment)) << space.format(assignment);
    drawn.insert(assignment);
  }
  EXPECT_EQ(drawn.size(), 7u);
  auto error = [&] { return mlir::emitError(mlir::UnknownLoc::get(context.get())); };
  EXPECT_TRUE(failed(space.parseAssignment({"m=3", "n=4"}, std::nullopt, error)));
  EXPECT_NE(lastError.find("violates the constraint \"m * n <= 8\""),
            std::string::npos);
  EXPECT_TRUE(succeeded(space.parseAssignment({"m=4", "n=2"}, std::nullopt, error)));
}

TEST(SpaceConstraints, ParseErrorsNameTheProblem) {
  auto index = [](llvm::StringRef name) { return name == "a" ? 0 : -1; };
  EXPECT_EQ(llvm::toString(Constraint::parse("a + b", index).takeError()),
            "no knob named 'b'");
  EXPECT_EQ(llvm::toString(Constraint::parse("(a + 1", index).takeError()),
            "missing ')'");
  EXPECT_EQ(llvm::toString(Constraint::parse("a <=", index).takeError()),
            "expression ends early");
  llvm::Expected<Constraint> precedence =
      Constraint::parse("2 + 3 * a == 14 && -a < 0", index);
  ASSERT_TRUE(bool(precedence));
  EXPECT_TRUE(precedence->holds({4}));
  EXPECT_FALSE(precedence->holds({3}));
  // Division by zero makes a constraint false, not undefined behaviour.
  llvm::Expected<Constraint> divide = Constraint::parse("8 % a == 0", index);
  EXPECT_FALSE(divide->holds({0}));
  EXPECT_TRUE(divide->holds({4}));
}
