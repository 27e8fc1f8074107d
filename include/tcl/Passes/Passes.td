//===- Passes.td - tcl pass declarations -------------------*- tablegen -*-===//
//
// Every pass tcl registers in tcl-opt. Pipelines built from these passes
// (`tcl-lower-cpu`) are registered in lib/Passes/Pipelines.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_PASSES_PASSES_TD
#define TCL_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TclExtractTasks : Pass<"tcl-extract-tasks", "mlir::ModuleOp"> {
  let summary = "Find the tunable linalg ops, group identical ones into tasks, "
                "print them as JSON";
  let description = [{
    Walks every function of the module and classifies each structured op
    (matmul and its transposed variants, batch_matmul, 2-D convolutions in
    every layout, grouped and depthwise convolutions, pooling, elementwise and
    reduction `linalg.generic`s, `linalg.softmax`). Ops with the same
    canonical form (indexing maps, iterator types, payload, shapes and element
    types) form one task whose `weight` counts its occurrences. Elementwise
    ops that consume a contraction or convolution and can be fused into its
    tile loops are recorded as that task's `fusable_consumers`.

    The report is one JSON document `{"tasks": [...], "unsupported": [...],
    "summary": {...}}` (fields in docs/tasks.md), or with `format=table` a
    table sorted by each task's share of the model's FLOPs.
    Ops that cannot be tuned (dynamic shapes, non-numeric element types) are
    listed under `unsupported` with the reason, and diagnosed at their
    source location: as errors that fail the pass (the report is still
    written), or with `allow-unsupported=true` as warnings.

    The IR is not modified. tcl-opt discards the module when this pass runs
    and no `-o` is given, so that standard output stays valid JSON.
  }];
  let options = [
    Option<"outputPath", "output", "std::string", /*default=*/"\"-\"",
           "File to write the JSON report to ('-' is standard output)">,
    Option<"allowUnsupported", "allow-unsupported", "bool", /*default=*/"false",
           "Report ops that cannot be tuned as warnings and succeed">,
    Option<"format", "format", "std::string", /*default=*/"\"json\"",
           "'json' (the machine-readable report) or 'table' (for people)">,
    Option<"outlineDir", "outline-dir", "std::string", /*default=*/"\"\"",
           "Also write each task (its first occurrence, with its fused "
           "consumers) as a module of its own, <kind>_<key>.mlir, into this "
           "directory">,
  ];
}

def TclPrintSpace : Pass<"tcl-print-space", "mlir::ModuleOp"> {
  let summary = "Print the schedule space of each task (or of a tunable "
                "Transform script) and its size";
  let description = [{
    On a model (a module without `transform.tune.knob` ops), builds the CPU
    space of every task, as `tcl-cpu-space` does, and prints each task's
    template with its knobs, the number of schedules and the number of
    legal ones (those satisfying the template's `tcl.constraints`). On a
    tunable Transform script (one of tcl's spaces or a user's own), prints
    its knobs the same way. tcl-opt discards the module when this pass runs
    and no `-o` is given.
  }];
  let options = [
    Option<"cpu", "cpu", "std::string", /*default=*/"\"host\"",
           "LLVM CPU name the spaces are built for ('host': this machine)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "Comma-separated LLVM feature overrides, e.g. '-avx512f'">,
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Threads the schedules may use (adds the thread_dim knob)">,
  ];
}

def TclCpuSpace : Pass<"tcl-cpu-space", "mlir::ModuleOp"> {
  let summary = "Write the CPU schedule space of a model as a tunable "
                "Transform script";
  let description = [{
    Annotates each task's ops with `tcl.task = "<key>"` and writes the
    model's space: a template `@tcl_<key>` per task (Transform ops whose
    free parameters are `transform.tune.knob`s, with legality constraints in
    `tcl.constraints`) and a `@__transform_main` that includes them all.
    `tcl-concretize` turns the space into a schedule; `tcl-apply-schedule`
    or stock `mlir-opt -transform-interpreter` applies it to the annotated
    model.
  }];
  let options = [
    Option<"outputPath", "output", "std::string", /*default=*/"\"-\"",
           "File to write the space to ('-' is standard output)">,
    Option<"cpu", "cpu", "std::string", /*default=*/"\"host\"",
           "LLVM CPU name the space is built for ('host': this machine)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "Comma-separated LLVM feature overrides, e.g. '-avx512f'">,
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Threads the schedules may use (adds the thread_dim knob)">,
  ];
}

def TclApplySchedule : Pass<"tcl-apply-schedule", "mlir::ModuleOp"> {
  let summary = "Apply a schedule (a concrete Transform script) to a model";
  let description = [{
    Annotates the model's tasks and runs the `@__transform_main` of the
    schedule file on it: typically a space concretized by `tcl-concretize`,
    but any Transform script works. tcl-opt also accepts the short form
    `--tcl-apply-schedule=FILE`.
  }];
  let options = [
    Option<"schedulePath", "schedule", "std::string", /*default=*/"\"\"",
           "The schedule file">,
  ];
  let dependentDialects = ["mlir::transform::TransformDialect"];
}

def TclConcretize : Pass<"tcl-concretize", "mlir::ModuleOp"> {
  let summary = "Turn a tunable Transform script into a concrete schedule";
  let description = [{
    Sets the `selected` attribute of every `transform.tune.knob` in the
    module, from `schedule` (`name=value` items), from a uniformly random
    draw (`seed`), or from the knobs' existing `selected` values. The result
    is a concrete Transform script that stock
    `mlir-opt -transform-interpreter` replays.
  }];
  let options = [
    ListOption<"schedule", "schedule", "std::string",
               "Knob values as name=value items, e.g. "
               "schedule=tile_m=16,tile_n=8">,
    Option<"seed", "seed", "int64_t", /*default=*/"-1",
           "Draw every knob not in `schedule` uniformly with this seed "
           "(-1: no draw)">,
  ];
}

def TclCpuDefaultSchedule
    : Pass<"tcl-cpu-default-schedule", "mlir::func::FuncOp"> {
  let summary = "Schedule every linalg op with a fixed CPU heuristic "
                "(tile, then vectorize)";
  let description = [{
    The untuned baseline schedule: each structured op with static shapes is
    tiled so that every tile fits a register-sized vector along its innermost
    parallel dimension, and the tile is vectorized. Convolutions are first
    tiled to unit filter height and output height so that they decompose into
    1-D convolutions, which the linalg vectorizer handles. Tile sizes always
    divide the loop bounds, so no dynamic shapes (and no silent scalar
    fallback) appear. Ops that cannot be vectorized keep their tiled loops.
    With `threads > 1`, each op is first split across an `scf.forall` on its
    outermost parallel loop that the thread count divides.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "Elements per vector register (16 for AVX-512 fp32, 8 for AVX2)">,
    Option<"rowTile", "row-tile", "int64_t", /*default=*/"8",
           "Register tile along the second-innermost parallel dimension">,
    Option<"threads", "threads", "int64_t", /*default=*/"1",
           "Split the outermost evenly divisible parallel loop of each op "
           "into this many scf.forall iterations (1: no scf.forall)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::vector::VectorDialect",
                           "mlir::tensor::TensorDialect", "mlir::arith::ArithDialect"];
}

def TclDecomposeAggregates
    : Pass<"tcl-decompose-aggregates", "mlir::func::FuncOp"> {
  let summary = "Decompose aggregated linalg ops (softmax) into generics";
  let description = [{
    `linalg.softmax` and other ops implementing `AggregatedOpInterface` have
    no loop lowering of their own. This pass rewrites them into the
    reductions and elementwise generics they stand for, which every later
    stage (scheduling, loop lowering) understands.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::tensor::TensorDialect"];
}

def TclSetCpuTarget : Pass<"tcl-set-cpu-target", "mlir::ModuleOp"> {
  let summary = "Attach a CPU name and feature set to every LLVM function";
  let description = [{
    Sets `target_cpu` and `target_features` on each `llvm.func`, so that
    LLVM code generation (in tcl-run's JIT or in `mlir-translate | llc`)
    emits code for that target even on a host with more features. This is
    how one physical CPU yields several targets (AVX-512, AVX2, SSE4.2).
  }];
  let options = [
    Option<"cpu", "cpu", "std::string", /*default=*/"\"host\"",
           "LLVM CPU name ('host' resolves to this machine's CPU)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "Comma-separated LLVM feature overrides, e.g. '-avx512f'">,
  ];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif // TCL_PASSES_PASSES_TD
