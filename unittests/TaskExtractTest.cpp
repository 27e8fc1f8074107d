//===- TaskExtractTest.cpp - Grouping, costs, fusion and JSON -------------===//

#include "TestUtils.h"
#include "tcl/Task/TaskExtraction.h"
#include "tcl/Task/TaskJson.h"

#include "gtest/gtest.h"

using namespace tcl;
using namespace tcl::testing;

/// Two identical matmuls, each followed by a bias add (fusable), and a
/// third matmul whose result has two uses (not fusable).
static const char *kModel = R"mlir(
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @forward(%x: tensor<16x32xf32>, %w: tensor<32x32xf32>, %b: tensor<32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m0 = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m0, %b : tensor<16x32xf32>, tensor<32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  %m1 = linalg.matmul ins(%a0, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b : tensor<16x32xf32>, tensor<32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  %m2 = linalg.matmul ins(%a1, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a2 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b : tensor<16x32xf32>, tensor<32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %a2, %m2 : tensor<16x32xf32>, tensor<16x32xf32>
}
)mlir";

TEST(ExtractTasks, GroupsIdenticalChainsAndStopsAtSharedResults) {
  auto context = makeContext();
  auto module = parse(*context, kModel);
  TaskSet set = extractTasks(*module);
  // matmul+bias (x2), matmul alone (its result has two uses), bias alone.
  ASSERT_EQ(set.tasks.size(), 3u);
  const Task &fused = set.tasks[0];
  EXPECT_EQ(fused.kind, TaskKind::Matmul);
  EXPECT_EQ(fused.weight, 2u);
  ASSERT_EQ(fused.fusableConsumers.size(), 1u);
  EXPECT_EQ(fused.fusableConsumers[0].opName, "linalg.generic");
  EXPECT_EQ(fused.locations.size(), 2u);

  const Task &bare = set.tasks[1];
  EXPECT_EQ(bare.kind, TaskKind::Matmul);
  EXPECT_EQ(bare.weight, 1u);
  EXPECT_TRUE(bare.fusableConsumers.empty());
  EXPECT_NE(bare.key, fused.key);

  EXPECT_EQ(set.tasks[2].kind, TaskKind::Elementwise);
  EXPECT_EQ(set.countOccurrences(TaskKind::Matmul), 3u);
  EXPECT_TRUE(set.unsupported.empty());
}

TEST(ExtractTasks, CountsFlopsAndBytes) {
  auto context = makeContext();
  auto module = parse(*context, kModel);
  TaskSet set = extractTasks(*module);
  const Task &bare = set.tasks[1];
  EXPECT_EQ(bare.loopBounds, (llvm::SmallVector<int64_t>{16, 32, 32}));
  EXPECT_DOUBLE_EQ(bare.flops, 2.0 * 16 * 32 * 32);
  // A and B read once, C read and written.
  EXPECT_EQ(bare.bytes, 4 * (16 * 32 + 32 * 32 + 2 * 16 * 32));
  // The fused bias add adds one op per output and reads the bias.
  const Task &fused = set.tasks[0];
  EXPECT_DOUBLE_EQ(fused.flops, 2.0 * 16 * 32 * 32 + 16 * 32);
  EXPECT_EQ(fused.bytes, bare.bytes + 4 * 32);
  EXPECT_DOUBLE_EQ(set.totalFlops(),
                   2 * fused.flops + bare.flops + set.tasks[2].flops);
}

TEST(ExtractTasks, JsonCarriesEveryField) {
  auto context = makeContext();
  auto module = parse(*context, kModel);
  llvm::json::Value value = toJSON(extractTasks(*module));
  llvm::json::Object *root = value.getAsObject();
  ASSERT_NE(root, nullptr);
  llvm::json::Array *tasks = root->getArray("tasks");
  ASSERT_NE(tasks, nullptr);
  ASSERT_EQ(tasks->size(), 3u);
  llvm::json::Object *first = (*tasks)[0].getAsObject();
  for (llvm::StringRef field :
       {"key", "kind", "op", "iterator_types", "loop_bounds", "operand_types",
        "dtype", "flops", "bytes", "weight", "fusable_consumers", "transpose"})
    EXPECT_NE(first->get(field), nullptr) << field.str();
  EXPECT_EQ(first->getString("kind"), "matmul");
  EXPECT_EQ(first->getString("transpose"), "nn");
  EXPECT_EQ(first->getInteger("weight"), 2);
  EXPECT_EQ(root->getObject("summary")->getInteger("num_occurrences"), 4);
}

TEST(ExtractTasks, ListsUnsupportedOpsWithTheirLocation) {
  auto context = makeContext();
  auto module = parse(*context, R"mlir(
func.func @f(%a: tensor<?x8xf32>, %o: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x8xf32>) outs(%o : tensor<?x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
})mlir");
  TaskSet set = extractTasks(*module);
  EXPECT_TRUE(set.tasks.empty());
  ASSERT_EQ(set.unsupported.size(), 1u);
  EXPECT_EQ(set.unsupported[0].opName, "linalg.generic");
  EXPECT_NE(set.unsupported[0].location.find(":3:"), std::string::npos)
      << set.unsupported[0].location;
}
