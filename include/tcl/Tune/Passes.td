//===- Passes.td - The tuning pass -------------------------*- tablegen -*-===//
//
// Separate from tcl's other passes because it links the cost models
// (LibTorch); tools that only schedule or lower need not.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TUNE_PASSES_TD
#define TCL_TUNE_PASSES_TD

include "mlir/Pass/PassBase.td"

def TclTune : Pass<"tcl-tune", "mlir::ModuleOp"> {
  let summary = "Tune every task of the module for a target and schedule it "
                "with the best schedules found";
  let description = [{
    Extracts the module's tasks and tunes them (docs/tuning.md): rounds of
    cost-model-guided evolutionary search, the RDU sampler, measurement in
    isolated processes and an online update of the model, with the trial
    budget shared among tasks by their share of the module's time. Every
    measurement goes to the tuning database; running the same command again
    resumes. Prints live progress and a summary table to stderr (unless
    `quiet`). The module comes out with the best schedules applied, or
    lowered to the LLVM dialect with `lower`; `export-schedules` writes them
    as a Transform library that stock mlir-opt replays.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"x86_64:host:1t\"",
           "Target string, e.g. x86_64:x86-64-v3:1t (docs/measurement.md)">,
    Option<"trials", "trials", "unsigned", /*default=*/"1000",
           "Candidates measured over all tasks (a resumed run counts what "
           "the database holds)">,
    Option<"batchSize", "batch", "unsigned", /*default=*/"16",
           "Candidates measured per round">,
    Option<"firstBatchSize", "first-batch", "unsigned", /*default=*/"4",
           "Candidates measured in a task's first round (the model's "
           "best-scored ones, whatever the sampler)">,
    Option<"database", "db", "std::string", /*default=*/"\"tcl-tuning.db\"",
           "Tuning database (SQLite; created if missing)">,
    Option<"model", "model", "std::string", /*default=*/"\"\"",
           "Cost model file (default: the shipped pre-trained model), or a "
           "model kind to start untrained (mamba, tenset-mlp, attention, "
           "xgboost, random)">,
    Option<"sampler", "sampler", "std::string", /*default=*/"\"rdu\"",
           "rdu (representativeness, diversity, uncertainty) or topk (the "
           "model's best-scored candidates)">,
    Option<"poolFactor", "pool-factor", "unsigned", /*default=*/"2",
           "The search hands the sampler batch x pool-factor of its "
           "best-scored candidates to pick from">,
    Option<"stallRounds", "stall-rounds", "unsigned", /*default=*/"2",
           "A task whose last stall-rounds rounds did not beat its best "
           "takes the model's top-k until one does, whatever the sampler "
           "(0: never)">,
    Option<"confirmations", "confirmations", "unsigned", /*default=*/"2",
           "Before a task's schedule is chosen, its fastest is measured "
           "again until it has this many more measurements (the median "
           "counts; 0: none)">,
    Option<"representativeness", "rdu-r", "double", /*default=*/"1.0",
           "Weight of representativeness in the RDU sampler (0: off)">,
    Option<"diversity", "rdu-d", "double", /*default=*/"1.0",
           "Weight of diversity in the RDU sampler (0: off)">,
    Option<"uncertainty", "rdu-u", "double", /*default=*/"1.0",
           "Weight of uncertainty in the RDU sampler (0: off)">,
    Option<"performance", "rdu-p", "double", /*default=*/"1.0",
           "Weight of the model's predicted speed in the RDU sampler (0: "
           "off, RDU as in pool mode)">,
    Option<"updateSteps", "update-steps", "int", /*default=*/"-1",
           "Gradient steps of the model's online update per round (0: none; "
           "-1: the model's own, 10 for Mamba and 20 for the others)">,
    Option<"updateAnchor", "update-anchor", "bool", /*default=*/"true",
           "Hold the online update to the model as loaded, by distillation "
           "on random schedules of every task">,
    Option<"workers", "workers", "unsigned", /*default=*/"1",
           "Processes building candidates at once">,
    Option<"seed", "seed", "uint64_t", /*default=*/"0", "Seed of the search">,
    Option<"repeats", "repeats", "unsigned", /*default=*/"0",
           "Time each candidate exactly this many times (0: until the "
           "samples agree, docs/measurement.md)">,
    Option<"minFlops", "min-flops", "double", /*default=*/"1e5",
           "Tasks with fewer FLOPs are not tuned">,
    Option<"onednn", "onednn", "std::string", /*default=*/"\"auto\"",
           "tcl-onednn for oneDNN's per-task times ('auto': beside tcl-opt; "
           "'': none)">,
    Option<"network", "network", "std::string", /*default=*/"\"model\"",
           "Network name stored with the tasks in the database">,
    Option<"exportSchedules", "export-schedules", "std::string",
           /*default=*/"\"\"",
           "Write the best schedules as a Transform library to this file">,
    Option<"history", "history", "std::string", /*default=*/"\"\"",
           "Append one JSON line per round to this file (tuning curves)">,
    Option<"endToEnd", "end-to-end", "bool", /*default=*/"false",
           "Measure the whole module, tuned and default, and oneDNN's "
           "per-task times again, at the end">,
    Option<"allowUnsupported", "allow-unsupported", "bool", /*default=*/"false",
           "Ops that cannot be tuned (dynamic shapes) are warnings, and keep "
           "the default schedule; otherwise they are errors">,
    Option<"fillElided", "fill-elided", "int64_t", /*default=*/"-1",
           "For the end-to-end run, fill weights whose values the file "
           "elides (dense_resource<__elided__>) with random values from this "
           "seed (-1: elided weights are an error there)">,
    Option<"keepDefault", "keep-default", "bool", /*default=*/"true",
           "Tasks where nothing measured beats the default schedule keep it">,
    Option<"channelsLast", "channels-last", "bool", /*default=*/"true",
           "First rewrite channels-first convolutions and poolings into "
           "channels-last ones (tcl-convert-conv-to-nhwc)">,
    Option<"lower", "lower", "bool", /*default=*/"false",
           "Lower the tuned module to the LLVM dialect">,
    Option<"quiet", "quiet", "bool", /*default=*/"false",
           "No progress and no summary">,
  ];
}

#endif // TCL_TUNE_PASSES_TD
