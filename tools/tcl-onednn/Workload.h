//===- Workload.h - oneDNN primitives that compute one task ---*- C++ -*-===//
//
// What tcl-onednn times: the oneDNN primitives, created and given their
// operands outside the timed region, that compute a task's op the way a
// framework calling oneDNN would.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TOOLS_ONEDNN_WORKLOAD_H
#define TCL_TOOLS_ONEDNN_WORKLOAD_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/Error.h"

#include <dnnl.hpp>

#include <string>
#include <unordered_map>
#include <vector>

namespace tcl {

/// Primitives with their arguments, executed in order on one stream.
struct Workload {
  struct Step {
    dnnl::primitive primitive;
    std::unordered_map<int, dnnl::memory> arguments;
  };
  /// The primitives' kinds, e.g. "matmul" or "eltwise, binary".
  std::string primitiveName;
  std::vector<Step> steps;

  void add(llvm::StringRef name, dnnl::primitive primitive,
           std::unordered_map<int, dnnl::memory> arguments);
  /// Runs every step and waits for the stream.
  void execute(dnnl::stream &stream);
};

/// A memory in `desc`'s layout filled with a deterministic pattern in
/// [-1, 1), the range of the candidates' random inputs (and so touched
/// before timing).
dnnl::memory filledMemory(const dnnl::memory::desc &desc,
                          const dnnl::engine &engine);

/// The oneDNN primitives computing an all-parallel linalg.generic with one
/// f32 result: its body's arithmetic becomes eltwise and binary primitives
/// with post-ops (broadcast operands as oneDNN broadcasts, transposed ones
/// as strides), a pure copy or transpose becomes a reorder. An error names
/// what oneDNN cannot express.
llvm::Expected<Workload> makeElementwiseWorkload(mlir::linalg::GenericOp op,
                                                 const dnnl::engine &engine);

} // namespace tcl

#endif // TCL_TOOLS_ONEDNN_WORKLOAD_H
