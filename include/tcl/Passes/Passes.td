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
    Option<"allowUnsupported", "allow-unsupported", "bool", /*default=*/"false",
           "Ops that cannot be tuned (dynamic shapes) are warnings, and keep "
           "the default schedule; otherwise they are errors">,
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
    Option<"allowUnsupported", "allow-unsupported", "bool", /*default=*/"false",
           "Ops that cannot be tuned (dynamic shapes) are warnings, and keep "
           "the default schedule; otherwise they are errors">,
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

def TclConvertConvToNhwc
    : Pass<"tcl-convert-conv-to-nhwc", "mlir::func::FuncOp"> {
  let summary = "Rewrite channels-first convolutions and poolings into "
                "channels-last ones between transposes";
  let description = [{
    PyTorch frontends (torch-mlir) emit `linalg.conv_2d_nchw_fchw`,
    `linalg.depthwise_conv_2d_nchw_chw` and `linalg.pooling_nchw_max/sum`.
    Their innermost loops are the filter window, which tcl's CPU templates
    cannot vectorize; their channels-last twins vectorize over channels.
    This pass replaces each with the NHWC op (filters HWCF / HWC) between
    `linalg.transpose`s of the image, the output's initial value and the
    result. Constant filters are transposed at compile time. The transposes
    back to NCHW sink through the 4-D elementwise generics and constant
    paddings that follow, which become channels-last, until they fold with
    the next convolution's transpose to NHWC (a transpose of a transpose, of
    a fill or by the identity folds). Ops of dynamic shape are left alone.
    `--tcl-tune` runs it first, and `--tcl-lower-cpu` with the default
    schedule; the `loops` reference does not, so `tcl-run --check` also
    checks the rewrite. Run it before `--tcl-extract-tasks` to see the
    tasks the tuner sees.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect"];
}

def TclApproximateMath : Pass<"tcl-approximate-math", "mlir::func::FuncOp"> {
  let summary = "Replace transcendental math ops by polynomial approximations";
  let description = [{
    Rewrites `math.exp`, `math.tanh`, `math.erf`, `math.log` and their
    relatives, on scalars and vectors, into MLIR's polynomial
    approximations: arithmetic that LLVM vectorizes. Lowered as they are,
    they become calls to the C library, one per vector lane; the exp of a
    softmax then ran ~7x slower than oneDNN's eltwise_exp. The
    approximations are accurate to a few ulp in f32.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

def TclReadOnlyArguments : Pass<"tcl-read-only-arguments", "mlir::ModuleOp"> {
  let summary = "Mark the tensor arguments of public functions read-only for "
                "bufferization";
  let description = [{
    Sets `bufferization.writable = false` on every tensor argument of every
    public `func.func`. A tensor argument is a value its caller still owns:
    when an op's destination (`outs`) is such an argument (torch-mlir's
    convolution initialised with the broadcast bias, a matmul starting from
    a constant, an outlined task whose init is not a `linalg.fill`), one-shot
    bufferization would otherwise write the result into the caller's buffer,
    and a second call with the same inputs would return another answer.
    Read-only arguments make bufferization copy such an init into a buffer
    of the function's own. Arguments already annotated keep their
    annotation.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def TclDecomposePads : Pass<"tcl-decompose-pads", "mlir::func::FuncOp"> {
  let summary = "Write each tensor.pad as a fill of its result and a copy of "
                "its source into it";
  let description = [{
    One-shot bufferization writes a `tensor.pad` as a `linalg.map` that
    evaluates the pad's region for every element of the result, then a copy
    of the source into it; the map lowers to scalar loops that evaluate the
    region once per element, at a fraction of memory speed.
    This pass rewrites each pad whose padding value does not depend on the
    position into `tensor.empty`, `linalg.fill` and `tensor.insert_slice`
    (upstream's DecomposePadOpPattern), which bufferize to a fill at memory
    speed and a strided copy that `tcl-vectorize-copies` vectorizes. Run it
    on scheduled IR, right before bufferization: a pad still on tensors then
    is outside every tuned tile.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def TclUnshareFills : Pass<"tcl-unshare-fills", "mlir::func::FuncOp"> {
  let summary = "Give every op that writes into a linalg.fill its own fill";
  let description = [{
    CSE merges the identical zero fills that initialise a network's
    convolutions and matmuls into one value shared by every layer of that
    shape. One-shot bufferization then fills one buffer and copies it into a
    fresh buffer for each layer: a full extra pass over every output. This
    pass clones a `linalg.fill` (and the `tensor.empty` it fills) for each
    use that bufferization lets write into it (an op's `outs`, a tiled
    loop's `iter_args`) beyond the first, so that each layer fills the
    buffer it writes. Run it right before bufferization, after the last CSE
    on tensors.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def TclProfileOps : Pass<"tcl-profile-ops", "mlir::ModuleOp"> {
  let summary = "Time every top-level op of the module's functions";
  let description = [{
    Runs on buffers (after bufferization). Inserts a call to the runtime's
    `tcl_profile_mark(id)` at the entry of each defined function and after
    every op of its body that has side effects: the loop nests of tiled
    tasks, copies, fills, allocations and calls. The runtime attributes the
    time between two marks to the op before the second, so that a network's
    latency splits into its tasks and the glue between them (what
    `tcl-run --profile` prints). Pure ops (constants, views, casts) cost
    nothing at run time and fall to the next mark.

    The module gets a `tcl.profile_ops` attribute: for each mark id, a
    dictionary with the op's `category` (`compute`, `copy`, `fill`, `alloc`,
    `call`), its `op` name and its source `location`. A function called from
    another instrumented function restarts the clock, so its caller's call
    op only gets the time after the callee's last mark: profile modules
    whose entry function does the work.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def TclVectorizeCopies : Pass<"tcl-vectorize-copies", "mlir::func::FuncOp"> {
  let summary = "Lower strided memref.copy ops and buffer fills to loops of "
                "vector loads and stores";
  let description = [{
    Bufferization writes a `tensor.pad` or `tensor.insert_slice` as a
    `memref.copy` into a strided subview. A copy between buffers that are
    not both contiguous lowers to the runtime's `memrefCopy`, which moves one
    element per `memcpy` call; the padding of a network's activations then
    costs as much as some of its convolutions. This pass rewrites every
    statically shaped copy whose innermost dimension is unit-stride on both
    sides into a loop nest over the outer dimensions whose body moves each
    row (the innermost dimension: channels, for a channels-last activation)
    by vector loads and stores of `vector-width` elements, with one narrower
    vector for the remainder. Copies between two contiguous buffers are left
    alone: they already lower to one `memcpy`.

    A `linalg.fill` of such a buffer (a layer's zero accumulator, a pad's
    border) becomes the same loops storing a splat of its value; a
    contiguous buffer is filled as one row.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "unsigned", /*default=*/"16",
           "Elements moved by one vector load and store">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
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

def TclGpuSpace : Pass<"tcl-gpu-space", "mlir::ModuleOp"> {
  let summary = "Write the NVVM GPU schedule space of a model as a tunable "
                "Transform script";
  let description = [{
    The GPU counterpart of `tcl-cpu-space`: a template `@tcl_<key>` per task
    tiles its op onto a grid of thread blocks (`scf.forall` mapped to
    `#gpu.block` and `#gpu.thread`), with knobs for the block tiles, the
    reduction step, the thread block shape and, for contractions, staging
    operand tiles in shared memory. Constraints keep schedules within the
    chip's limits. `tcl-concretize` picks a schedule and `tcl-lower-gpu`
    compiles it to PTX.
  }];
  let options = [
    Option<"outputPath", "output", "std::string", /*default=*/"\"-\"",
           "File to write the space to ('-' is standard output)">,
    Option<"target", "target", "std::string", /*default=*/"\"nvvm:sm_90\"",
           "GPU target, nvvm:<chip>">,
  ];
}

def TclGpuMapToLaunch : Pass<"tcl-gpu-map-to-launch", "mlir::ModuleOp"> {
  let summary = "Turn block- and thread-mapped scf.forall loops into "
                "gpu.launch, with shared buffers as workgroup memory";
  let description = [{
    Runs after bufferization of a GPU schedule. Every function's outermost
    `scf.forall` mapped to `#gpu.block` becomes a `gpu.launch` whose grid is
    the forall's trip counts; the nested thread-mapped foralls become thread
    ids, with the block size the largest thread forall asks for (and a
    barrier after each). Buffers allocated in memory space 3 inside the
    launch become its workgroup attributions, which NVVM lowering turns into
    `.shared` globals.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::transform::TransformDialect"];
}

def TclGpuAlignWorkgroupMemory
    : Pass<"tcl-gpu-align-workgroup-memory", "mlir::gpu::GPUModuleOp"> {
  let summary = "Align every kernel's workgroup buffers to 16 bytes";
  let description = [{
    Vectorized copies into shared memory use 128-bit stores
    (`st.shared.v4`), which need 16-byte aligned buffers; NVVM lowering
    aligns workgroup attributions to their element size unless told
    otherwise.
  }];
}

def TclGpuBatch : Pass<"tcl-gpu-batch", "mlir::ModuleOp"> {
  let summary = "Build a batch of random GPU schedules of every task for "
                "tcl-runner";
  let description = [{
    For each task of the model (its op alone, outlined into a function of
    its operands), draws `count` distinct random legal schedules from its
    GPU space and compiles each to a kernel: `<dir>/<key>-<i>.ptx` and its
    launch config `<key>-<i>.json`, which also names the task, its knob
    assignment and how tcl-runner checks the result (cuBLAS for plain
    matmuls, else the task's reference kernel `ref-<key>.json`, the
    schedule with the smallest tiles). A schedule that fails to compile is
    reported in `<dir>/build.jsonl` with the diagnostic, and the batch goes
    on. `<dir>/tasks.jsonl` holds the tasks in the tuning database's JSON
    Lines form (key, kind, FLOPs, network, the outlined op as payload), for
    importing the runner's results. This is the build half of GPU measurement; tcl-runner on the GPU
    host is the run half.
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", /*default=*/"\".\"",
           "Directory the batch is written to">,
    Option<"target", "target", "std::string", /*default=*/"\"nvvm:sm_90\"",
           "GPU target, nvvm:<chip>">,
    Option<"count", "count", "unsigned", /*default=*/"50",
           "Schedules per task">,
    Option<"seed", "seed", "uint64_t", /*default=*/"0",
           "Seed of the schedule draws">,
    Option<"format", "format", "std::string", /*default=*/"\"isa\"",
           "Kernel object: isa (PTX) or bin (cubin, needs ptxas)">,
    Option<"minFlops", "min-flops", "double", /*default=*/"0",
           "Skip tasks with fewer FLOPs">,
    Option<"network", "network", "std::string", /*default=*/"\"\"",
           "Network name recorded with the tasks in tasks.jsonl">,
  ];
}

def TclGpuRecordLaunches : Pass<"tcl-gpu-record-launches", "mlir::ModuleOp"> {
  let summary = "Record each gpu.launch_func's launch config in the module";
  let description = [{
    Runs after kernel outlining, while launch operands are still the host
    function's memref arguments: stores, as the module attribute
    `tcl.launches` (JSON text), each launch's kernel, grid and block sizes
    and its operands as function argument indices with shapes.
    `tcl-gpu-export-kernels` writes them out beside the compiled kernels.
  }];
}

def TclGpuExportKernels : Pass<"tcl-gpu-export-kernels", "mlir::ModuleOp"> {
  let summary = "Write each compiled kernel as PTX plus its launch config "
                "(JSON) for tcl-runner";
  let description = [{
    Runs at the end of `tcl-lower-gpu`. For every function that launches a
    kernel, writes `<dir>/<name>.ptx` (the `gpu.binary` object, PTX when the
    pipeline's format is `isa`) and `<dir>/<name>.json`: the kernel symbol,
    grid and block sizes, shared memory, and the launch's arguments as the
    function's argument indices with their shapes and element types.
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", /*default=*/"\".\"",
           "Directory the kernels are written to">,
    Option<"name", "name", "std::string", /*default=*/"\"\"",
           "File stem (default: the function's name)">,
  ];
}

#endif // TCL_PASSES_PASSES_TD
