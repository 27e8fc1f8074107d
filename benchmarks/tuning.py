#!/usr/bin/python3
"""Tuners side by side on whole networks (issue 6's benchmark).

For each network (the zoo's ResNet-50 and BERT-base by default) and each
method, `tcl-opt --tcl-tune` tunes the network --reps times (seeds 0..reps-1)
with --trials candidates, each run in its own database:

  tcl         the Mamba cost model + the RDU sampler
  tenset-mlp  TenSet's MLP, the model's top-k (TenSet's tuner)
  xgboost     Ansor's XGBoost, untrained, retrained online, top-k
  random      no model: random candidates from the same search

Mamba and TenSet-MLP are pre-trained on the shipped datasets with every task
of the benchmarked networks held out (`tcl-train --test-networks=...`).

For a target that is new to tcl's models (issue 8), two more methods tune
with Mamba models that have seen only --new-target-fraction of --target's
records (those of the benchmarked networks held out, as always):

  tcl-distilled  a teacher trained on --source-targets, distilled onto them
                 (`tcl-train --distill`), + RDU
  tcl-scratch    Mamba trained from scratch on them alone, + RDU
Every run writes its rounds (`history=`) and ends with an end-to-end
measurement of the tuned network, so the tables and curves come from the
same runs. Runs resume: rerunning the command continues unfinished runs from
their databases (the work directory keeps them), so the benchmark can be
spread over several sittings.

Reported, per network: the estimated network time (sum over tasks of
occurrences x best latency) after each round, as curves against trials and
wall time (PNG), in two units:

  own run   over the sum of oneDNN's per-op latencies measured in the same
            run ("vs oneDNN"; each op's faster of the run's two measurements,
            at its start and end). A shared machine's speed can drift by tens
            of percent between runs minutes apart; this ratio does not.
  common    over one sum for every run of the network: each op's fastest
            oneDNN latency over all the runs ("vs best oneDNN"). oneDNN's
            time for one op can differ by 13% between runs of a quiet
            machine, where the tuned estimates agree within 1%; this unit
            carries none of that, and all of any drift.

In each unit: the trials and the wall time each method needs to reach the
TenSet-MLP tuner's final value, as ratios to TenSet-MLP's. Also the final
estimate, in milliseconds and over oneDNN; the final end-to-end latency of
each method beside the default schedule's; the run's wall time by phase
(searching and sampling, measuring, updating the model). Medians over
repetitions. Prints a table and writes JSON.

    benchmarks/tuning.py [--build build] [--networks resnet50,bert_base]
        [--methods tcl,tenset-mlp,xgboost,random] [--trials 1000] [--reps 3]
        [--work tuning-work] [--out docs/results/tuning.json]
"""

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, HERE)
from cost_models import SHIPPED_DATASETS, import_dataset  # noqa: E402

METHODS = {
    "tcl": {"model": "mamba", "sampler": "rdu"},
    "tenset-mlp": {"model": "tenset-mlp", "sampler": "topk"},
    "xgboost": {"model": "xgboost", "sampler": "topk", "untrained": True},
    "random": {"model": "random", "sampler": "topk", "untrained": True,
               "update_steps": 0},
    "tcl-distilled": {"model": "mamba", "sampler": "rdu", "transfer": "distill"},
    "tcl-scratch": {"model": "mamba", "sampler": "rdu", "transfer": "scratch"},
}


def run(command, **kwargs):
    print("running: " + " ".join(command), flush=True)
    subprocess.run(command, check=True, **kwargs)


def trained_model(bin_dir, work, name, arguments):
    """models/`name`.tclm, trained by `tcl-train DATASET arguments` unless it
    exists; DATASET holds the shipped datasets."""
    path = os.path.join(work, "models", name + ".tclm")
    if os.path.exists(path):
        return path
    os.makedirs(os.path.dirname(path), exist_ok=True)
    db = os.path.join(work, "dataset.db")
    if not os.path.exists(db):
        import_dataset(bin_dir, work, SHIPPED_DATASETS)
    run([os.path.join(bin_dir, "tcl-train"), db] + arguments +
        ["-o", path, "--json=" + path + ".json"], stdout=subprocess.DEVNULL)
    return path


def method_model(bin_dir, work, method, args):
    """The model file (or untrained kind) `method` tunes with."""
    spec = METHODS[method]
    if spec.get("untrained"):
        return spec["model"]
    held_out = ["--model=" + spec["model"], "--test-networks=" + args.networks]
    transfer = spec.get("transfer")
    if transfer is None:
        return trained_model(bin_dir, work, spec["model"], held_out)
    few = ["--new-target=" + args.target, "--pool-sampler=random",
           "--pool-fraction=%g" % args.new_target_fraction]
    if transfer == "scratch":
        return trained_model(bin_dir, work, "%s-scratch-%g" % (spec["model"],
                             args.new_target_fraction), held_out + few)
    teacher = trained_model(bin_dir, work, spec["model"] + "-teacher",
                            held_out + ["--targets=" + args.source_targets])
    return trained_model(bin_dir, work, "%s-distilled-%g" % (spec["model"],
                         args.new_target_fraction),
                         held_out + few + ["--distill=" + teacher])


def read_history(path):
    rounds, final = [], None
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                entry = json.loads(line)
                if entry.get("final"):
                    final = entry
                else:
                    rounds.append(entry)
    return rounds, final


def curve(rounds, onednn_s):
    """(trials, cumulative seconds, estimated network seconds, that estimate
    over `onednn_s`) per round, from the first round at which every task of
    the run has a measurement: before it, the tuner's estimate sums only the
    tasks measured so far and would look better than any finished tuning.
    main() appends the estimate in the common unit."""
    tasks = {entry["task"] for entry in rounds}
    points, seconds, seen = [], 0.0, set()
    for entry in rounds:
        seconds += entry["seconds"]
        seen.add(entry["task"])
        if len(seen) == len(tasks):
            estimate = entry["estimated_s"]
            points.append((entry["trials"], seconds, estimate,
                           estimate / onednn_s if onednn_s else None))
    return points


PHASES = ("searching", "measuring", "updating")


def phases(rounds):
    """A run's wall seconds by phase, summed over its rounds; None for
    histories written before the tuner recorded them."""
    if not rounds or any(phase + "_s" not in entry for entry in rounds
                         for phase in PHASES):
        return None
    return {phase: sum(entry[phase + "_s"] for entry in rounds) for phase in PHASES}


def onednn_task_seconds(db):
    """{task key: (occurrences, oneDNN's latency)} as measured in the run
    that wrote `db`. Tasks without a oneDNN figure are left out; they are
    the same tasks in every run of a network."""
    if not os.path.exists(db):
        return {}
    with sqlite3.connect(db) as connection:
        return {key: (occurrences, seconds) for key, occurrences, seconds in
                connection.execute(
                    """select t.key, tn.occurrences, b.median_s
                       from task_networks tn join baselines b on b.task_id = tn.task_id
                       join tasks t on t.id = tn.task_id
                       where b.library = 'onednn' and b.median_s > 0""")}


def onednn_network_seconds(tasks):
    """Sum over `tasks` (onednn_task_seconds) of occurrences x latency."""
    return sum(occurrences * seconds for occurrences, seconds in tasks.values()) or None


def fastest_onednn_seconds(runs):
    """The common unit: the sum over tasks of occurrences x the task's
    fastest oneDNN latency in any of `runs` (onednn_task_seconds each)."""
    fastest = {}
    for tasks in runs:
        for key, (occurrences, seconds) in tasks.items():
            if key not in fastest or seconds < fastest[key][1]:
                fastest[key] = (occurrences, seconds)
    return onednn_network_seconds(fastest)


def first_reaching(points, target, index, unit=3):
    """Trials (index 0) or seconds (index 1) when the run's estimate in
    `unit` (3: over its own oneDNN sum, 4: the common unit) first is <=
    target."""
    for point in points:
        if point[unit] is not None and point[unit] <= target * (1 + 1e-9):
            return point[index]
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--networks", default="resnet50,bert_base")
    parser.add_argument("--methods", default="tcl,tenset-mlp,xgboost,random")
    parser.add_argument("--target", default="x86_64:x86-64-v3:1t")
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--source-targets", default="x86_64:x86-64-v3:1t,x86_64:x86-64-v2:1t",
                        help="tcl-distilled: the targets its teacher learned")
    parser.add_argument("--new-target-fraction", type=float, default=0.1,
                        help="tcl-distilled, tcl-scratch: the share of --target's "
                        "records their models learn from")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--work", default="tuning-work",
                        help="databases, histories and models (kept, for resuming)")
    parser.add_argument("--out", default="tuning.json")
    parser.add_argument("--plots", default=None,
                        help="directory for the PNG curves (default: beside --out)")
    args = parser.parse_args()
    bin_dir = os.path.join(args.build, "bin")
    networks = args.networks.split(",")
    methods = args.methods.split(",")
    for method in methods:
        if method not in METHODS:
            sys.exit("unknown method '%s' (expected %s)" % (method, ", ".join(METHODS)))
    os.makedirs(args.work, exist_ok=True)

    models = {method: method_model(bin_dir, args.work, method, args) for method in methods}

    results = {}
    # Repetition by repetition, so that an interrupted benchmark already
    # holds every method and network side by side.
    for rep in range(args.reps):
        for network in networks:
            model_file = os.path.join(args.build, "zoo", network + ".mlir")
            for method in methods:
                spec = METHODS[method]
                # A model that saw a share of the new target is named with it,
                # so that runs of several shares share one --work.
                share = ("-%g" % args.new_target_fraction
                         if spec.get("transfer") else "")
                name = "%s-%s%s-%d" % (network, method, share, rep)
                db = os.path.join(args.work, name + ".db")
                history = os.path.join(args.work, name + ".jsonl")
                rounds, final = read_history(history)
                if final is None or final["trials"] < args.trials:
                    options = ["target=" + args.target, "trials=%d" % args.trials,
                               "batch=%d" % args.batch, "db=" + db, "model=" + models[method],
                               "sampler=" + spec["sampler"], "seed=%d" % rep,
                               "network=" + network, "history=" + history,
                               "end-to-end=true", "quiet=true"]
                    if "update_steps" in spec:
                        options.append("update-steps=%d" % spec["update_steps"])
                    run([os.path.join(bin_dir, "tcl-opt"), model_file,
                         "--tcl-tune=" + " ".join(options), "-o", os.devnull])
                    rounds, final = read_history(history)
                onednn = onednn_task_seconds(db)
                results[name] = {"network": network, "method": method, "rep": rep,
                                 "onednn": onednn,
                                 "curve": curve(rounds, onednn_network_seconds(onednn)),
                                 "phases": phases(rounds), "final": final}

    report = {"target": args.target, "trials": args.trials, "reps": args.reps,
              "new_target_fraction": args.new_target_fraction,
              "source_targets": args.source_targets.split(","),
              "batch": args.batch, "networks": {}}
    for network in networks:
        runs = {m: [r for r in results.values()
                    if r["network"] == network and r["method"] == m] for m in methods}
        common = fastest_onednn_seconds([r["onednn"] for rs in runs.values() for r in rs])
        for rs in runs.values():
            for r in rs:
                r["curve"] = [point[:4] + ((point[2] / common) if common else None,)
                              for point in r["curve"]]
        median = lambda values: statistics.median(values) if values else None
        finals = {m: median([r["curve"][-1][2] for r in runs[m] if r["curve"]])
                  for m in methods}
        final_in = lambda m, unit: [r["curve"][-1][unit] for r in runs[m]
                                    if r["curve"] and r["curve"][-1][unit] is not None]
        rows = []
        for method in methods:
            row = {"method": method, "runs": len(runs[method]),
                   "final_estimated_s": finals[method],
                   "final_vs_onednn": median(final_in(method, 3)),
                   "final_vs_best_onednn": median(final_in(method, 4))}
            # The target every method races to: TenSet-MLP's final estimate,
            # in each unit.
            for unit, suffix in ((3, ""), (4, "_common")):
                reference = median(final_in("tenset-mlp", unit)) if "tenset-mlp" in runs else None
                trials_to = [first_reaching(r["curve"], reference, 0, unit)
                             for r in runs[method]] if reference else []
                seconds_to = [first_reaching(r["curve"], reference, 1, unit)
                              for r in runs[method]] if reference else []
                reached = [t for t in trials_to if t is not None]
                row["trials_to_mlp_final" + suffix] = median(reached)
                row["runs_reaching" + suffix] = len(reached)
                row["seconds_to_mlp_final" + suffix] = median(
                    [s for s in seconds_to if s is not None])
            end_to_end = [r["final"].get("end_to_end_tuned_s") for r in runs[method]
                          if r["final"] and r["final"].get("end_to_end_tuned_s")]
            defaults = [r["final"].get("end_to_end_default_s") for r in runs[method]
                        if r["final"] and r["final"].get("end_to_end_default_s")]
            # Tuned over default, both measured at the end of the same run.
            over_default = [r["final"]["end_to_end_tuned_s"] / r["final"]["end_to_end_default_s"]
                            for r in runs[method] if r["final"]
                            and r["final"].get("end_to_end_tuned_s")
                            and r["final"].get("end_to_end_default_s")]
            row.update({"end_to_end_tuned_s": median(end_to_end),
                        "end_to_end_default_s": median(defaults),
                        "end_to_end_tuned_over_default": median(over_default),
                        "seconds_by_phase": {
                            phase: median([r["phases"][phase] for r in runs[method]
                                           if r["phases"]]) for phase in PHASES}})
            rows.append(row)
        mlp_row = next((row for row in rows if row["method"] == "tenset-mlp"), None)
        for row in rows:
            for suffix in ("", "_common"):
                ratio = lambda key: (mlp_row[key] / row[key]) \
                    if mlp_row and row[key] and mlp_row[key] else None
                row["trials_speedup_vs_mlp" + suffix] = ratio("trials_to_mlp_final" + suffix)
                row["time_speedup_vs_mlp" + suffix] = ratio("seconds_to_mlp_final" + suffix)
            if mlp_row and row["end_to_end_tuned_over_default"] and \
                    mlp_row["end_to_end_tuned_over_default"]:
                row["latency_ratio_mlp_over_method"] = (
                    mlp_row["end_to_end_tuned_over_default"] /
                    row["end_to_end_tuned_over_default"])
        report["networks"][network] = {"rows": rows, "best_onednn_s": common,
                                       "curves": {name: r["curve"] for name, r in results.items()
                                                  if r["network"] == network}}

        print()
        print("== %s: %d trials, %d repetitions, target %s (medians)"
              % (network, args.trials, args.reps, args.target))
        fmt = lambda v, f: (f % v) if v is not None else "-"
        print("%-13s %13s %10s %13s %13s %11s %9s" % (
            "method", "final est.", "vs oneDNN", "vs best dnnl", "end to end", "e2e/default",
            "MLP/this"))
        for row in rows:
            print("%-13s %13s %10s %13s %13s %11s %9s" % (
                row["method"],
                fmt(row["final_estimated_s"] and row["final_estimated_s"] * 1e3, "%.3f ms"),
                fmt(row["final_vs_onednn"], "%.3f"), fmt(row["final_vs_best_onednn"], "%.3f"),
                fmt(row["end_to_end_tuned_s"] and row["end_to_end_tuned_s"] * 1e3, "%.2f ms"),
                fmt(row["end_to_end_tuned_over_default"], "%.3f"),
                fmt(row.get("latency_ratio_mlp_over_method"), "%.3f")))
        print("to TenSet-MLP's final, in each unit (own run: vs oneDNN; common: vs best oneDNN):")
        print("%-13s %16s %9s %11s %9s %16s %9s %11s %9s" % (
            "method", "trials (own)", "speedup", "seconds", "speedup",
            "trials (common)", "speedup", "seconds", "speedup"))
        for row in rows:
            cells = []
            for suffix in ("", "_common"):
                cells += [fmt(row["trials_to_mlp_final" + suffix], "%d") +
                          " (%d/%d)" % (row["runs_reaching" + suffix], row["runs"]),
                          fmt(row["trials_speedup_vs_mlp" + suffix], "%.2fx"),
                          fmt(row["seconds_to_mlp_final" + suffix], "%.0f s"),
                          fmt(row["time_speedup_vs_mlp" + suffix], "%.2fx")]
            print("%-13s %16s %9s %11s %9s %16s %9s %11s %9s" % tuple([row["method"]] + cells))
        print("wall seconds by phase (medians): " + "; ".join(
            "%s %s" % (row["method"], ", ".join(
                "%s %s" % (phase, fmt(row["seconds_by_phase"][phase], "%.0f"))
                for phase in PHASES)) for row in rows))

    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    print("\nwrote " + args.out)
    plot(report, methods, args.plots or os.path.dirname(os.path.abspath(args.out)),
         os.path.splitext(os.path.basename(args.out))[0])


def plot(report, methods, directory, stem):
    """One PNG per network, named after the JSON report (`stem`_network.png):
    against trials and wall time (columns), in each unit (rows)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing: no plots")
        return
    units = ((3, "over the run's own oneDNN sum"), (4, "over the fastest oneDNN sum"))
    for network, data in report["networks"].items():
        figure, axes = plt.subplots(2, 2, figsize=(11, 8))
        for method in methods:
            curves = [c for name, c in data["curves"].items()
                      if name.rsplit("-", 1)[0] == "%s-%s" % (network, method) and c]
            for (unit, unit_label), unit_axes in zip(units, axes):
                for index, (axis, xlabel) in enumerate(zip(unit_axes,
                                                           ["trials", "wall time (s)"])):
                    for rep, points in enumerate(curves):
                        axis.plot([p[index] for p in points], [p[unit] for p in points],
                                  color="C%d" % methods.index(method), alpha=0.8,
                                  label=method if rep == 0 else None)
                    axis.set_xlabel(xlabel)
                    axis.set_ylabel("estimated time\n" + unit_label)
        axes[0][0].legend()
        figure.suptitle("%s, target %s: best estimated network time while tuning"
                        % (network, report["target"]))
        figure.tight_layout()
        path = os.path.join(directory, "%s_%s.png" % (stem, network))
        figure.savefig(path, dpi=110)
        print("wrote " + path)


if __name__ == "__main__":
    main()
