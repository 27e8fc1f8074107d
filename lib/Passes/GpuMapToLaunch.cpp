//===- GpuMapToLaunch.cpp - The tcl-gpu-map-to-launch pass ----------------===//
//
// Upstream's `transform.gpu.map_forall_to_blocks` and
// `map_nested_forall_to_threads` do the mapping, but take the block size as
// a static attribute; the schedule only fixes it implicitly (the thread
// counts of its foralls). This pass reads it off the IR, runs the two
// transforms, and then gives the shared buffers the schedule allocated in
// memory space 3 to the launch as workgroup attributions.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/DeviceMappingInterface.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

namespace tcl {
#define GEN_PASS_DEF_TCLGPUMAPTOLAUNCH
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

/// Whether `forall`'s first mapping attribute is a `MappingAttr`.
template <typename MappingAttr>
static bool isMappedTo(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  return mapping && !mapping->empty() && isa<MappingAttr>((*mapping)[0]);
}

/// The block size the thread-mapped foralls in `blockForall` need: per
/// axis the largest trip count mapped to it; linear mappings must fit in
/// the whole block, which grows along x if they do not.
static FailureOr<std::array<int64_t, 3>> blockSizeOf(scf::ForallOp blockForall) {
  std::array<int64_t, 3> size = {1, 1, 1};
  int64_t linear = 1;
  WalkResult walk = blockForall.walk([&](scf::ForallOp forall) {
    if (!isMappedTo<gpu::GPUThreadMappingAttr>(forall))
      return WalkResult::advance();
    ArrayRef<int64_t> counts = forall.getStaticUpperBound();
    auto mapping = *forall.getMapping();
    if (llvm::any_of(counts, ShapedType::isDynamic)) {
      forall.emitError("a thread-mapped scf.forall needs static trip counts");
      return WalkResult::interrupt();
    }
    int64_t total = 1;
    for (auto [attr, count] : llvm::zip(mapping, counts)) {
      auto thread = cast<gpu::GPUThreadMappingAttr>(attr);
      total *= count;
      if (thread.isLinearMapping())
        continue;
      unsigned axis = static_cast<unsigned>(thread.getThread());
      size[axis] = std::max(size[axis], count);
    }
    if (cast<gpu::GPUThreadMappingAttr>(mapping[0]).isLinearMapping())
      linear = std::max(linear, total);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  while (size[0] * size[1] * size[2] < linear)
    size[0] *= 2;
  return size;
}

/// Copies that stay memref.copy inside a kernel would become calls to the
/// host runtime's memrefCopy; as linalg.copy they lower to loops.
static void copiesToLinalg(gpu::LaunchOp launch) {
  SmallVector<memref::CopyOp> copies;
  launch.getBody().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
  for (memref::CopyOp copy : copies) {
    OpBuilder builder(copy);
    linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                           copy.getTarget());
    copy.erase();
  }
}

/// Replaces each memory-space-3 allocation inside `launch` by a workgroup
/// attribution of the launch.
static void allocationsToWorkgroupMemory(gpu::LaunchOp launch) {
  SmallVector<Operation *> allocations;
  launch.getBody().walk([&](Operation *op) {
    if (!isa<memref::AllocOp, memref::AllocaOp>(op))
      return;
    auto type = cast<MemRefType>(op->getResult(0).getType());
    if (auto space = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
        space && space.getInt() == 3)
      allocations.push_back(op);
    if (auto space =
            dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
        space && space.getValue() == gpu::AddressSpace::Workgroup)
      allocations.push_back(op);
  });
  for (Operation *allocation : allocations) {
    Value buffer = allocation->getResult(0);
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    BlockArgument attribution = launch.addWorkgroupAttribution(
        buffer.getType(), allocation->getLoc());
    buffer.replaceAllUsesWith(attribution);
    allocation->erase();
  }
}

namespace {
struct GpuMapToLaunchPass
    : public tcl::impl::TclGpuMapToLaunchBase<GpuMapToLaunchPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>()) {
      SmallVector<scf::ForallOp> grids;
      func.walk<WalkOrder::PreOrder>([&](scf::ForallOp forall) {
        if (isMappedTo<gpu::GPUBlockMappingAttr>(forall))
          grids.push_back(forall);
      });
      if (grids.empty())
        continue;
      if (grids.size() > 1) {
        grids[1].emitError("one block-mapped scf.forall per function is "
                           "supported; this is the second");
        return signalPassFailure();
      }
      FailureOr<std::array<int64_t, 3>> block = blockSizeOf(grids[0]);
      if (failed(block))
        return signalPassFailure();
      if ((*block)[0] * (*block)[1] * (*block)[2] > 1024) {
        grids[0].emitError() << "the schedule asks for "
                             << (*block)[0] * (*block)[1] * (*block)[2]
                             << " threads per block (at most 1024)";
        return signalPassFailure();
      }
      std::string script = llvm::formatv(
          "module attributes {{transform.with_named_sequence} {{\n"
          "  transform.named_sequence @__transform_main(%func: "
          "!transform.any_op {{transform.consumed}) {{\n"
          "    %launch = transform.gpu.map_forall_to_blocks %func "
          "generate_gpu_launch : (!transform.any_op) -> !transform.any_op\n"
          "    transform.gpu.map_nested_forall_to_threads %launch block_dims = "
          "[{0}, {1}, {2}] : (!transform.any_op) -> !transform.any_op\n"
          "    transform.yield\n  }\n}\n",
          (*block)[0], (*block)[1], (*block)[2]);
      ParserConfig config(&getContext());
      OwningOpRef<ModuleOp> transforms =
          parseSourceString<ModuleOp>(script, config, "tcl-gpu-map-to-launch");
      if (!transforms)
        return signalPassFailure();
      Operation *entry = transform::detail::findTransformEntryPoint(
          func, *transforms,
          transform::TransformDialect::kTransformEntryPointSymbolName);
      if (failed(transform::applyTransformNamedSequence(
              func, entry, *transforms, transform::TransformOptions())))
        return signalPassFailure();
    }
    module.walk([](gpu::LaunchOp launch) {
      allocationsToWorkgroupMemory(launch);
      copiesToLinalg(launch);
    });
  }
};
} // namespace
