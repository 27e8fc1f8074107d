//===- JitModuleTest.cpp - Lower, JIT-compile and run a module ------------===//

#include "TestUtils.h"
#include "tcl/Passes/Passes.h"
#include "tcl/Run/JitModule.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"

#include "gtest/gtest.h"

using namespace tcl;
using namespace tcl::testing;

static const char *kMatmulRelu = R"mlir(
func.func @forward(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32):
    %v = arith.maximumf %x, %zero : f32
    linalg.yield %v : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}
)mlir";

/// Lowers kMatmulRelu with `schedule`, runs it and checks every element
/// against a plain C++ matmul + ReLU.
static void runAndCheck(llvm::StringRef schedule, llvm::StringRef cpu) {
  auto context = makeContext();
  auto module = parse(*context, kMatmulRelu);
  EntrySignature signature = *readEntrySignature(*module, "forward");
  ASSERT_EQ(signature.inputs.size(), 2u);
  ASSERT_EQ(signature.outputs.size(), 1u);

  CpuLoweringOptions options;
  options.cpu = cpu.str();
  options.schedule = schedule.str();
  mlir::PassManager pm(context.get());
  ASSERT_TRUE(succeeded(buildCpuLoweringPipeline(pm, options)));
  ASSERT_TRUE(succeeded(pm.run(*module)));
  CpuTarget target = cantFail(CpuTarget::resolve(cpu, ""));
  std::unique_ptr<JitModule> jit = cantFail(JitModule::compile(*module, target));

  std::vector<HostTensor> inputs, outputs;
  signature.allocate(/*seed=*/3, inputs, outputs);
  ASSERT_FALSE(static_cast<bool>(jit->call("forward", inputs, outputs)));
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 32; ++j) {
      double sum = 0;
      for (int k = 0; k < 16; ++k)
        sum += inputs[0].at(i * 16 + k) * inputs[1].at(k * 32 + j);
      EXPECT_NEAR(outputs[0].at(i * 32 + j), std::max(sum, 0.0), 1e-4)
          << "at " << i << "," << j;
    }
}

TEST(JitModule, DefaultScheduleComputesMatmulRelu) { runAndCheck("default", "host"); }
TEST(JitModule, NaiveLoopsComputeMatmulRelu) { runAndCheck("loops", "host"); }
TEST(JitModule, Sse42TargetComputesMatmulRelu) { runAndCheck("default", "x86-64-v2"); }

TEST(JitModule, SignatureRejectsDynamicShapes) {
  auto context = makeContext();
  auto module = parse(*context, R"mlir(
func.func @forward(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
})mlir");
  context->getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
  EXPECT_TRUE(failed(readEntrySignature(*module, "forward")));
  EXPECT_TRUE(failed(readEntrySignature(*module, "missing")));
}

TEST(JitModule, VectorsWiderThanARegisterAreSplit) {
  // A loop-carried accumulator of three AVX-512 vectors, as a 1x48 register
  // tile lowers: LLVM's O3 alone keeps the <48 x float> phi.
  static const char *kAccumulate = R"ll(
define void @accumulate(ptr %a, ptr %c, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi <48 x float> [ zeroinitializer, %entry ], [ %sum, %loop ]
  %address = getelementptr float, ptr %a, i64 %i
  %row = load <48 x float>, ptr %address, align 4
  %sum = fadd <48 x float> %acc, %row
  %next = add i64 %i, 48
  %done = icmp uge i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  store <48 x float> %sum, ptr %c, align 4
  ret void
}
)ll";
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(kAccumulate, diagnostic, context);
  ASSERT_TRUE(module) << diagnostic.getMessage().str();
  CpuTarget target = cantFail(CpuTarget::resolve("znver5", ""));
  ASSERT_EQ(target.vectorBits(), 512u);
  std::unique_ptr<llvm::TargetMachine> machine =
      cantFail(target.createTargetMachine(/*forJit=*/true));
  optimizeForCpu(*module, machine.get(), target.vectorBits());
  unsigned widest = 0;
  for (llvm::Function &function : *module)
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(instruction.getType());
      if (vector)
        widest = std::max<unsigned>(widest, vector->getPrimitiveSizeInBits());
    }
  EXPECT_GT(widest, 0u) << "the loop is no longer vectorized";
  EXPECT_LE(widest, 512u);
}
