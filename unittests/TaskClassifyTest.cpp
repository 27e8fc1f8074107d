//===- TaskClassifyTest.cpp - Structural classification of linalg ops -----===//

#include "TestUtils.h"
#include "tcl/Task/TaskExtraction.h"

#include "gtest/gtest.h"

using namespace tcl;
using namespace tcl::testing;

namespace {
/// Classifies the first `opName` in a module made of `body` inside a
/// function with the given arguments.
class Classify : public ::testing::Test {
protected:
  Classification classify(const std::string &source,
                          llvm::StringRef opName) {
    module = parse(*context, source);
    mlir::Operation *op = findFirst(*module, opName);
    EXPECT_NE(op, nullptr) << "no " << opName.str();
    return op ? classifyOp(op) : Classification{};
  }

  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
};
} // namespace

TEST_F(Classify, MatmulAndBatchMatmul) {
  EXPECT_EQ(classify(R"mlir(
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
})mlir", "linalg.matmul").kind, TaskKind::Matmul);
  EXPECT_EQ(classify(R"mlir(
func.func @f(%a: tensor<3x4x8xf32>, %b: tensor<3x8x2xf32>, %c: tensor<3x4x2xf32>) -> tensor<3x4x2xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x4x8xf32>, tensor<3x8x2xf32>) outs(%c : tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
  return %r : tensor<3x4x2xf32>
})mlir", "linalg.batch_matmul").kind, TaskKind::BatchMatmul);
}

TEST_F(Classify, ConvolutionFamilies) {
  EXPECT_EQ(classify(R"mlir(
func.func @f(%i: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x8xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.conv_2d_nhwc_hwcf ins(%i, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
})mlir", "linalg.conv_2d_nhwc_hwcf").kind, TaskKind::Conv2D);
  EXPECT_EQ(classify(R"mlir(
func.func @f(%i: tensor<1x10x10x8xf32>, %w: tensor<3x3x8xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc ins(%i, %w : tensor<1x10x10x8xf32>, tensor<3x3x8xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
})mlir", "linalg.depthwise_conv_2d_nhwc_hwc").kind, TaskKind::DepthwiseConv2D);
  EXPECT_EQ(classify(R"mlir(
func.func @f(%i: tensor<1x10x10x8xf32>, %w: tensor<3x3xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.pooling_nhwc_max ins(%i, %w : tensor<1x10x10x8xf32>, tensor<3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
})mlir", "linalg.pooling_nhwc_max").kind, TaskKind::Pooling);
  EXPECT_EQ(classify(R"mlir(
func.func @f(%i: tensor<1x2x4x10x10xf32>, %w: tensor<8x2x4x3x3xf32>, %o: tensor<1x2x8x8x8xf32>) -> tensor<1x2x8x8x8xf32> {
  %r = linalg.conv_2d_ngchw_fgchw ins(%i, %w : tensor<1x2x4x10x10xf32>, tensor<8x2x4x3x3xf32>) outs(%o : tensor<1x2x8x8x8xf32>) -> tensor<1x2x8x8x8xf32>
  return %r : tensor<1x2x8x8x8xf32>
})mlir", "linalg.conv_2d_ngchw_fgchw").kind, TaskKind::GroupedConv2D);
}

TEST_F(Classify, GenericsBySemantics) {
  EXPECT_EQ(classify(R"mlir(
func.func @f(%a: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
})mlir", "linalg.generic").kind, TaskKind::Elementwise);
  EXPECT_EQ(classify(R"mlir(
func.func @f(%a: tensor<4x8xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.maximumf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
})mlir", "linalg.generic").kind, TaskKind::Reduction);
}

TEST_F(Classify, FillAndScalarsAreIgnoredAndDynamicShapesAreUnsupported) {
  Classification fill = classify(R"mlir(
func.func @f(%o: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 0.0 : f32
  %r = linalg.fill ins(%c : f32) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
})mlir", "linalg.fill");
  EXPECT_TRUE(fill.ignored);
  EXPECT_FALSE(fill.kind.has_value());

  Classification scalar = classify(R"mlir(
func.func @f(%a: tensor<f64>, %o: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%a : tensor<f64>) outs(%o : tensor<f32>) {
  ^bb0(%x: f64, %y: f32):
    %t = arith.truncf %x : f64 to f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %r : tensor<f32>
})mlir", "linalg.generic");
  EXPECT_TRUE(scalar.ignored) << "zero-dimensional ops are scalar glue";

  Classification dynamic = classify(R"mlir(
func.func @f(%a: tensor<?x8xf32>, %b: tensor<8x2xf32>, %c: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x2xf32>) outs(%c : tensor<?x2xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
})mlir", "linalg.matmul");
  EXPECT_FALSE(dynamic.kind.has_value());
  EXPECT_FALSE(dynamic.ignored);
  EXPECT_NE(dynamic.unsupportedReason.find("dynamic"), std::string::npos);
}
