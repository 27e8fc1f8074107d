//===- BatchPicking.h - Which scored candidates a round measures -*- C++ -*-===//
//
// One round of tuning scores a pool of candidates with the cost model and
// measures a few of them. Which few is the sampler's choice: the model's
// best-scored ("topk", TenSet's and Ansor's way) or the RDU sampler's picks
// in the model's embedding. The tuner and its offline replay (ReplayTuning.h)
// both pick through here, so that what the replay measures is what the tuner
// would do.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TUNE_BATCHPICKING_H
#define TCL_TUNE_BATCHPICKING_H

#include "tcl/Model/CostModel.h"
#include "tcl/Tune/RduSampler.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace tcl {

/// Indices into `pool` of the (at most) `count` candidates to measure.
///
/// `pool` holds unmeasured candidates in descending order of the model's
/// score; `measured` the task's measured schedules (diversity is measured
/// against them). `sampler` is "topk" (the first `count`) or "rdu";
/// `exploit` forces top-k, as a task's first round does, when nothing is
/// measured yet for diversity or an online update to work from.
std::vector<size_t> pickToMeasure(CostModel &model, const SequenceBatch &pool,
                                  const SequenceBatch &measured, size_t count,
                                  llvm::StringRef sampler,
                                  const RduOptions &rdu, bool exploit);

} // namespace tcl

#endif // TCL_TUNE_BATCHPICKING_H
