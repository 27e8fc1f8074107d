//===- TemplateWriter.h - Writing schedule templates as text ----*- C++ -*-===//
//
// Templates are written as Transform-dialect text rather than built op by
// op: the text is what users read, replay and edit, and writing it directly
// keeps each template readable as the script it produces.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_LIB_SPACE_TEMPLATEWRITER_H
#define TCL_LIB_SPACE_TEMPLATEWRITER_H

#include "tcl/Target/CpuTarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcl {

/// Divisors of `size` among `candidates`, plus `size` itself when it is at
/// most `fullCap`; never empty (falls back to {size}).
std::vector<int64_t> dividingOptions(int64_t size,
                                     llvm::ArrayRef<int64_t> candidates,
                                     int64_t fullCap);

/// Options of `candidates` that are at most `size`, or {size} if none.
std::vector<int64_t> optionsUpTo(int64_t size,
                                 llvm::ArrayRef<int64_t> candidates);

class TemplateWriter {
public:
  TemplateWriter(llvm::StringRef key, llvm::StringRef kindName,
                 const CpuTarget &target, unsigned fusedConsumers)
      : key(key.str()), kindName(kindName.str()), target(&target),
        consumers(fusedConsumers) {}
  /// A writer for templates of no CPU target (GPU templates), which use
  /// only the target-independent helpers.
  TemplateWriter(llvm::StringRef key, llvm::StringRef kindName)
      : key(key.str()), kindName(kindName.str()) {}

  /// Declares knob `name` (qualified by the task key) and returns its SSA
  /// name, e.g. "%reg_m".
  std::string knob(llvm::StringRef name, llvm::ArrayRef<int64_t> options);
  /// Adds a constraint over knob names (unqualified; qualified on output).
  void constrain(llvm::StringRef expression);
  /// Appends one line of the sequence body.
  /// A "{" right after a "}" opens the next region of the same op, which
  /// the syntax writes as "}, {".
  void line(const llvm::Twine &text) {
    std::string next = text.str();
    if (next == "{" && llvm::StringRef(body).ends_with("    }\n")) {
      body.pop_back();
      body += ", {\n";
      return;
    }
    body += "    " + next + "\n";
  }

  /// `tile_using_for` of `target` with `sizes` (each "0", an integer or a
  /// knob's SSA name) in loop order, visiting loops in `interchange` order.
  /// Returns the SSA names of the tiled op and of the generated loops, in
  /// nesting order.
  std::pair<std::string, std::vector<std::string>>
  tile(llvm::StringRef target, llvm::ArrayRef<std::string> sizes,
       llvm::ArrayRef<int64_t> interchange, llvm::StringRef targetType =
                                                "!transform.any_op");

  /// Tags the register-level op(s) behind `handle` with the task key, which
  /// is how vectorizeAndHoist() finds them after peeling (packing and some
  /// tilings create ops without the anchor's attributes).
  void markForVectorization(llvm::StringRef handle) {
    line("transform.annotate " + handle.str() +
         " \"tcl.task\" = %task_key : !transform.any_op, !transform.any_param");
  }

  /// With a multi-threaded target, splits one parallel loop of `op` across
  /// an scf.forall of `threads` iterations (OpenMP threads after lowering).
  /// The "thread_dim" knob picks the loop among `parallelLoops` that the
  /// thread count divides; the cache tile of the chosen loop (the knob in
  /// `cacheKnobOfLoop`, an SSA name) must divide its per-thread share.
  /// Returns the handle of the op inside the forall (`op` itself when
  /// single-threaded or when no loop divides).
  std::string splitAcrossThreads(
      llvm::StringRef op, llvm::ArrayRef<int64_t> bounds,
      llvm::ArrayRef<unsigned> parallelLoops,
      const std::vector<std::pair<unsigned, std::string>> &cacheKnobOfLoop);

  /// Peels the remainder of `loop`, if it has one, into its own loop (a
  /// loop the tile divides has nothing to peel, which is not an error).
  void peel(llvm::StringRef loop);

  /// The vectorization epilogue shared by all templates: vectorize the
  /// task's ops, turn reductions into contractions, hoist accumulators out of
  /// reduction loops and lower contractions to outer products.
  void vectorizeAndHoist();

  /// A fresh SSA name with the given stem.
  std::string fresh(llvm::StringRef stem);

  /// The whole named sequence.
  std::string str() const;

  const CpuTarget &cpu() const {
    assert(target && "a CPU helper used by a GPU template");
    return *target;
  }
  const std::string &taskKey() const { return key; }
  /// Length of the elementwise chain that extraction fused into the task.
  unsigned fusedConsumers() const { return consumers; }

  /// Tiles the last fused consumer of every occurrence (annotated
  /// `tcl.fusion_root`) and fuses its producers, the task's op included,
  /// into the tile loops. The consumer's loops are the task op's output
  /// dims (`outputMap`): each takes the tile of the op loop it indexes in
  /// `loopSizes`, in the order those loops have in `loopOrder`.
  void fuseIntoConsumer(mlir::AffineMap outputMap,
                        llvm::ArrayRef<std::string> loopSizes,
                        llvm::ArrayRef<int64_t> loopOrder);
  /// Elements of `elementBits` bits per vector register.
  int64_t lanes(unsigned elementBits) const {
    return std::max<int64_t>(1, cpu().vectorBits() / std::max(8u, elementBits));
  }
  /// Accumulator registers a register tile may occupy: the register file
  /// less one for the broadcast operand and one for a loaded vector.
  int64_t accumulatorRegisters() const { return cpu().vectorRegisters() - 2; }

private:
  /// "matmul_<key>.reg_m": unique across a model's templates, and an
  /// identifier (keys may start with a digit).
  std::string qualified(llvm::StringRef name) const {
    return kindName + "_" + key + "." + name.str();
  }

  std::string key, kindName;
  const CpuTarget *target = nullptr;
  unsigned consumers = 0;
  std::string knobs, body;
  std::vector<std::string> knobNames, constraints;
  unsigned counter = 0;
};

/// Per-family template bodies; each appends to `writer` after the common
/// prologue bound `%op` (the task's occurrences) and `%func` (their
/// functions).
void writeContractionTemplate(TemplateWriter &writer, mlir::linalg::LinalgOp op,
                              bool isMatmul);
bool writeConvolutionTemplate(TemplateWriter &writer, mlir::linalg::LinalgOp op);
void writeGenericTemplate(TemplateWriter &writer, mlir::linalg::LinalgOp op);

struct GpuTarget;
/// The GPU template of any task kind (see GpuTemplate.cpp); false when the
/// op has no parallel loop to map to blocks.
bool writeGpuTemplate(TemplateWriter &writer, mlir::linalg::LinalgOp op,
                      bool isContraction, const GpuTarget &target);

} // namespace tcl

#endif // TCL_LIB_SPACE_TEMPLATEWRITER_H
