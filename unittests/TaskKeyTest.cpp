//===- TaskKeyTest.cpp - Task kinds, keys and canonical forms -------------===//

#include "TestUtils.h"
#include "tcl/Task/TaskExtraction.h"

#include "gtest/gtest.h"

using namespace tcl;
using namespace tcl::testing;

TEST(TaskKind, NamesRoundTrip) {
  for (TaskKind kind :
       {TaskKind::Matmul, TaskKind::BatchMatmul, TaskKind::Conv2D,
        TaskKind::GroupedConv2D, TaskKind::DepthwiseConv2D, TaskKind::Pooling,
        TaskKind::Elementwise, TaskKind::Reduction, TaskKind::Softmax})
    EXPECT_EQ(symbolizeTaskKind(stringifyTaskKind(kind)), kind);
  EXPECT_FALSE(symbolizeTaskKind("gemm").has_value());
}

TEST(StableKey, IsSixteenHexDigitsAndDeterministic) {
  std::string key = stableKey("iterators=[parallel]");
  EXPECT_EQ(key.size(), 16u);
  EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(key, stableKey("iterators=[parallel]"));
  EXPECT_NE(key, stableKey("iterators=[reduction]"));
  // Pinned: a key change silently orphans every tuning database.
  EXPECT_EQ(stableKey(""), "e3b0c44298fc1c14");
}

static const char *kTwoMatmuls = R"mlir(
func.func @a(%x: tensor<8x16xf32>, %y: tensor<16x4xf32>, %z: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = linalg.matmul ins(%x, %y : tensor<8x16xf32>, tensor<16x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
func.func @b(%p: tensor<8x16xf32>, %q: tensor<16x4xf32>, %s: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %q : tensor<8x16xf32>, tensor<16x4xf32>) outs(%s : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %d = arith.addf %c, %m : f32
    linalg.yield %d : f32
  } -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
)mlir";

TEST(CanonicalForm, NamedOpAndEquivalentGenericShareIt) {
  auto context = makeContext();
  auto module = parse(*context, kTwoMatmuls);
  mlir::Operation *named = findFirst(*module, "linalg.matmul");
  mlir::Operation *generic = findFirst(*module, "linalg.generic");
  ASSERT_TRUE(named && generic);
  EXPECT_EQ(canonicalForm(named), canonicalForm(generic));
  // SSA names and the enclosing function do not leak into the form.
  EXPECT_EQ(canonicalForm(named).find("%x"), std::string::npos);
}

TEST(CanonicalForm, ShapesChangeIt) {
  auto context = makeContext();
  auto module = parse(*context, R"mlir(
func.func @f(%x: tensor<8x16xf32>, %y: tensor<16x4xf32>, %z: tensor<8x4xf32>,
             %u: tensor<8x32xf32>, %v: tensor<32x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %r = linalg.matmul ins(%x, %y : tensor<8x16xf32>, tensor<16x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%u, %v : tensor<8x32xf32>, tensor<32x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r, %s : tensor<8x4xf32>, tensor<8x4xf32>
})mlir");
  TaskSet tasks = extractTasks(*module);
  ASSERT_EQ(tasks.tasks.size(), 2u);
  EXPECT_NE(tasks.tasks[0].key, tasks.tasks[1].key);
}
