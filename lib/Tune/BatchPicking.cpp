//===- BatchPicking.cpp - Which scored candidates a round measures --------===//

#include "tcl/Tune/BatchPicking.h"

#include <numeric>

using namespace tcl;

std::vector<size_t> tcl::pickToMeasure(CostModel &model,
                                       const SequenceBatch &pool,
                                       const SequenceBatch &measured,
                                       size_t count, llvm::StringRef sampler,
                                       const RduOptions &rdu, bool exploit) {
  if (sampler == "topk" || exploit || pool.count <= count) {
    std::vector<size_t> first(std::min(count, pool.count));
    std::iota(first.begin(), first.end(), 0);
    return first;
  }
  Prediction pooled = model.predictForSampling(pool);
  Prediction known =
      measured.count ? model.predictForSampling(measured) : Prediction();
  RduPool rduPool;
  rduPool.candidates = {pooled.embeddings.data(), pool.count,
                        pooled.embeddingSize};
  rduPool.uncertainty = pooled.uncertainty;
  rduPool.predicted = pooled.scores;
  rduPool.measured = {known.embeddings.data(), measured.count,
                      known.embeddingSize};
  return selectRdu(rduPool, count, rdu);
}
