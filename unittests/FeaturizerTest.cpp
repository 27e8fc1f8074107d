//===- FeaturizerTest.cpp - Schedules as token sequences ------------------===//

#include "TestUtils.h"
#include "tcl/Features/TaskFeaturizer.h"
#include "tcl/Target/CpuTarget.h"
#include "tcl/Task/TaskExtraction.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace tcl;
using namespace tcl::testing;

static const char *kMatmul = R"mlir(
func.func @mm(%a: tensor<128x256xf32>, %b: tensor<256x512xf32>,
              %c: tensor<128x512xf32>) -> tensor<128x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x512xf32>)
                     outs(%c : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %0 : tensor<128x512xf32>
})mlir";

namespace {
class FeaturizerTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto module = parse(*context, kMatmul);
    TaskSet tasks = annotateTasks(*module);
    ASSERT_EQ(tasks.tasks.size(), 1u);
    key = tasks.tasks[0].key;
    auto target = CpuTarget::resolve("x86-64-v3", "", 1);
    ASSERT_TRUE(static_cast<bool>(target));
    auto created =
        TaskFeaturizer::create(*context, kMatmul, key, *target, "znver3");
    ASSERT_TRUE(static_cast<bool>(created)) << llvm::toString(created.takeError());
    featurizer = std::move(*created);
  }

  /// "matmul_<key>.name=value,..." from unqualified pairs.
  std::string schedule(llvm::StringRef pairs) {
    llvm::SmallVector<llvm::StringRef> items;
    llvm::SplitString(pairs, items, ",");
    std::string text;
    for (llvm::StringRef item : items)
      text += (text.empty() ? "" : ",") + ("matmul_" + key + "." + item).str();
    return text;
  }

  TokenSequence featurize(llvm::StringRef pairs) {
    TokenSequence sequence;
    llvm::Error error = featurizer->featurize(schedule(pairs), sequence);
    EXPECT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
    return sequence;
  }

  static TokenKind kindOf(const TokenSequence &sequence, unsigned index) {
    const float *token = sequence.values + index * kFeatureSize;
    for (unsigned kind = 0; kind < kTokenKinds; ++kind)
      if (token[token::kKind + kind] == 1)
        return static_cast<TokenKind>(kind);
    ADD_FAILURE() << "token " << index << " has no kind";
    return TokenKind::Task;
  }

  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  std::string key;
  std::unique_ptr<TaskFeaturizer> featurizer;
};

const char *kPlain = "cache_m=64,cache_n=128,cache_k=256,order=0,reg_m=6,"
                     "reg_n=16,reg_k=1,pack_b=0,cache_panels=1";
} // namespace

TEST_F(FeaturizerTest, StepsBecomeTokensInScriptOrder) {
  TokenSequence sequence = featurize(kPlain);
  // Cache tile, register tile, the register tile's remainders peeled
  // (m and n), vectorization.
  const TokenKind expected[] = {TokenKind::Task, TokenKind::Hardware,
                                TokenKind::Tile, TokenKind::Tile,
                                TokenKind::Peel, TokenKind::Peel,
                                TokenKind::Vectorize};
  ASSERT_EQ(sequence.length, std::size(expected));
  for (auto [index, kind] : llvm::enumerate(expected))
    EXPECT_EQ(kindOf(sequence, index), kind) << "token " << index;
  // Nothing after the last token.
  for (size_t i = sequence.length * kFeatureSize; i < kMaxTokens * kFeatureSize; ++i)
    ASSERT_EQ(sequence.values[i], 0.0f);
}

TEST_F(FeaturizerTest, TileTokensCarryRatiosToTheProblem) {
  TokenSequence sequence = featurize(kPlain);
  const float *cache = sequence.values + 2 * kFeatureSize;
  // Loops m, n, k: 64/128, 128/512, 256/256 (untiled).
  EXPECT_FLOAT_EQ(cache[token::kLoopRatio + 0], 0.5f);
  EXPECT_FLOAT_EQ(cache[token::kLoopRatio + 1], 0.25f);
  EXPECT_FLOAT_EQ(cache[token::kLoopRatio + 2], 1.0f);
  const float *reg = sequence.values + 3 * kFeatureSize;
  // The register tile is relative to the cache tile: 6/64, 16/128.
  EXPECT_FLOAT_EQ(reg[token::kLoopRatio + 0], 6.0f / 64.0f);
  EXPECT_FLOAT_EQ(reg[token::kLoopRatio + 1], 16.0f / 128.0f);
  // A cache tile does not fit the register file; a 6x16 tile's footprint is
  // smaller than the cache tile's.
  EXPECT_GT(cache[token::kNumeric + 2], 0.0f);
  EXPECT_LT(reg[token::kNumeric + 1], cache[token::kNumeric + 1]);
  // 64 divides 128 and 128 divides 512; 6 does not divide 64.
  EXPECT_EQ(cache[token::kNumeric + 7], 0.0f);
  EXPECT_GT(reg[token::kNumeric + 7], 0.0f);
}

TEST_F(FeaturizerTest, TileTokensCountTheOutputsReloads) {
  // K = 256 whole in the cache tile: the output tile is loaded once there;
  // the register tile takes k one at a time: 256 passes over it.
  TokenSequence whole = featurize(kPlain);
  EXPECT_EQ(whole.values[2 * kFeatureSize + token::kNumeric + 11], 0.0f);
  EXPECT_FLOAT_EQ(whole.values[3 * kFeatureSize + token::kNumeric + 11], 8.0f / 12.0f);
  // cache_k = 32: 8 passes over each cache tile of the output.
  TokenSequence split = featurize("cache_m=64,cache_n=128,cache_k=32,order=0,"
                                  "reg_m=6,reg_n=16,reg_k=1,pack_b=0,cache_panels=1");
  EXPECT_FLOAT_EQ(split.values[2 * kFeatureSize + token::kNumeric + 11], 3.0f / 12.0f);
}

TEST_F(FeaturizerTest, DeterministicAndSensitiveToEveryKnobKind) {
  TokenSequence first = featurize(kPlain), again = featurize(kPlain);
  EXPECT_EQ(std::memcmp(first.values, again.values, sizeof(first.values)), 0);
  // Loop order (an alternatives region) changes the cache tile's nesting.
  TokenSequence reordered = featurize(
      "cache_m=64,cache_n=128,cache_k=256,order=1,reg_m=6,reg_n=16,reg_k=1,"
      "pack_b=0,cache_panels=1");
  EXPECT_NE(std::memcmp(first.values, reordered.values, sizeof(first.values)), 0);
  EXPECT_EQ(reordered.length, first.length);
}

TEST_F(FeaturizerTest, PackingAddsAStepAndAnInnerLoop) {
  TokenSequence packed = featurize(
      "cache_m=64,cache_n=128,cache_k=256,order=0,reg_m=6,reg_n=16,reg_k=1,"
      "pack_b=2,cache_panels=8");
  ASSERT_EQ(packed.length, 8u);
  EXPECT_EQ(kindOf(packed, 2), TokenKind::Pack);
  const float *pack = packed.values + 2 * kFeatureSize;
  EXPECT_FLOAT_EQ(pack[token::kLoopRatio + 1], 16.0f / 512.0f);
  // The cache tile of the packed op: 8 panels of 16 columns = 128 of 512.
  const float *cache = packed.values + 3 * kFeatureSize;
  EXPECT_FLOAT_EQ(cache[token::kLoopRatio + 1], 8.0f / 32.0f);
}

TEST_F(FeaturizerTest, SchedulesOutsideTheSpaceAreErrors) {
  TokenSequence sequence;
  llvm::Error error = featurizer->featurize(schedule("cache_m=7"), sequence);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("cache_m"), std::string::npos);
}

TEST_F(FeaturizerTest, HardwareTokenDistinguishesTargets) {
  auto v2 = CpuTarget::resolve("x86-64-v2", "", 1);
  ASSERT_TRUE(static_cast<bool>(v2));
  auto other = TaskFeaturizer::create(*context, kMatmul, key, *v2, "znver3");
  ASSERT_TRUE(static_cast<bool>(other));
  TokenSequence avx2 = featurize(kPlain);
  const float *hardware = avx2.values + kFeatureSize + token::kNumeric;
  EXPECT_FLOAT_EQ(hardware[0], 256.0f / 512.0f);
  EXPECT_EQ(hardware[6], 1.0f); // FMA
  // SSE: 4 lanes, so the register tile options differ; any legal schedule
  // shows the narrower vectors.
  std::string sse = "cache_m=64,cache_n=128,cache_k=256,order=0,reg_m=6,"
                    "reg_n=8,reg_k=1,pack_b=0,cache_panels=1";
  TokenSequence narrow;
  ASSERT_FALSE(static_cast<bool>((*other)->featurize(schedule(sse), narrow)));
  EXPECT_FLOAT_EQ(narrow.values[kFeatureSize + token::kNumeric + 0], 128.0f / 512.0f);
  EXPECT_EQ(narrow.values[kFeatureSize + token::kNumeric + 6], 0.0f);
}

TEST_F(FeaturizerTest, VectorizeTokenMeasuresRegistersAgainstTheRegisterFile) {
  auto vectorNumbers = [](const TokenSequence &sequence) {
    EXPECT_EQ(kindOf(sequence, sequence.length - 1), TokenKind::Vectorize);
    return sequence.values + (sequence.length - 1) * kFeatureSize + token::kNumeric;
  };
  // AVX2, 16 registers of 8 lanes: a 6 x 16 tile holds 12 accumulators,
  // and 15 registers live with the B row and the broadcast.
  TokenSequence avx2 = featurize(kPlain);
  const float *sixBySixteen = vectorNumbers(avx2);
  EXPECT_FLOAT_EQ(sixBySixteen[0], std::log2(96.0f / 128.0f) / 8);
  EXPECT_FLOAT_EQ(sixBySixteen[1], 12.0f / 16.0f / 2.0f);
  EXPECT_FLOAT_EQ(sixBySixteen[6], 15.0f / 16.0f / 2.0f);
  EXPECT_EQ(sixBySixteen[8], 0.0f);
  // 3 x 32: the same 12 accumulators, but 17 live registers spill.
  TokenSequence wide = featurize("cache_m=64,cache_n=128,cache_k=256,order=0,"
                                 "reg_m=3,reg_n=32,reg_k=1,pack_b=0,cache_panels=1");
  EXPECT_FLOAT_EQ(vectorNumbers(wide)[1], 12.0f / 16.0f / 2.0f);
  EXPECT_EQ(vectorNumbers(wide)[8], 1.0f);

  // AVX-512, 32 registers of 16 lanes: a 12 x 32 tile fills the register
  // file as 6 x 16 fills AVX2's, and reads the same; its 24 accumulators
  // are not new ground for a model that knew only 16 registers.
  auto avx512 = CpuTarget::resolve("znver5", "", 1);
  ASSERT_TRUE(static_cast<bool>(avx512));
  auto zen5 = TaskFeaturizer::create(*context, kMatmul, key, *avx512, "znver5");
  ASSERT_TRUE(static_cast<bool>(zen5));
  TokenSequence twelveByThirtyTwo;
  ASSERT_FALSE(static_cast<bool>((*zen5)->featurize(
      schedule("cache_m=64,cache_n=128,cache_k=256,order=0,reg_m=12,"
               "reg_n=32,reg_k=1,pack_b=0,cache_panels=1"),
      twelveByThirtyTwo)));
  const float *filled = vectorNumbers(twelveByThirtyTwo);
  EXPECT_FLOAT_EQ(filled[0], sixBySixteen[0]);
  EXPECT_FLOAT_EQ(filled[1], sixBySixteen[1]);
  EXPECT_FLOAT_EQ(filled[6], 27.0f / 32.0f / 2.0f);
  EXPECT_EQ(filled[8], 0.0f);
}

TEST_F(FeaturizerTest, HardwareTokenDescribesTheMachinesCaches) {
  // The same target on a Zen 5 (48 KiB L1, 1 MiB L2) and on a CPU the table
  // does not list (typical 32 KiB / 512 KiB): the caches come from the CPU
  // named, never from the machine that featurizes.
  auto v3 = CpuTarget::resolve("x86-64-v3", "", 1);
  ASSERT_TRUE(static_cast<bool>(v3));
  auto zen5 = TaskFeaturizer::create(*context, kMatmul, key, *v3, "znver5");
  auto unknown = TaskFeaturizer::create(*context, kMatmul, key, *v3, "some-cpu");
  ASSERT_TRUE(zen5 && unknown);
  TokenSequence onZen5, onUnknown;
  ASSERT_FALSE(static_cast<bool>((*zen5)->featurize(schedule(kPlain), onZen5)));
  ASSERT_FALSE(
      static_cast<bool>((*unknown)->featurize(schedule(kPlain), onUnknown)));
  const float *zen5Hardware = onZen5.values + kFeatureSize + token::kNumeric;
  const float *typical = onUnknown.values + kFeatureSize + token::kNumeric;
  EXPECT_FLOAT_EQ(zen5Hardware[2], std::log2(48.0f * 1024) / 24);
  EXPECT_FLOAT_EQ(zen5Hardware[3], std::log2(1024.0f * 1024) / 24);
  EXPECT_FLOAT_EQ(typical[2], std::log2(32.0f * 1024) / 24);
  EXPECT_FLOAT_EQ(typical[3], std::log2(512.0f * 1024) / 24);
  // One thread: the cores the code runs on, whatever the machine has.
  EXPECT_FLOAT_EQ(zen5Hardware[5], 1.0f / 6);
  // Footprints are measured against the caches too: the L1 ratio of some
  // step token differs.
  bool footprintDiffers = false;
  for (unsigned t = 2; t < onZen5.length; ++t)
    footprintDiffers |= onZen5.values[t * kFeatureSize + token::kNumeric + 3] !=
                        onUnknown.values[t * kFeatureSize + token::kNumeric + 3];
  EXPECT_TRUE(footprintDiffers);
}
