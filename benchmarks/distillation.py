#!/usr/bin/python3
"""Continual cross-target distillation against its comparators (issue 8).

The cost model meets the targets of --sequence one after the other. The
first target's model is trained from scratch on all of its records; each
later target is learned from a fraction of its records by

  distill     tcl-train --distill: the previous model's network, held to its
              scores and representations on the new target's schedules and
              to a replay of earlier targets (tcl's method)
  distill-rdu the same teacher and method, with each fraction's records
              picked by the RDU sampler in the teacher's embedding instead
              of at random: what tcl would measure on a new target
  fine-tune   the previous model trained further on the new records
  scratch     a new model trained on the new records only
  multi-task  one shared network with a readout per target, trained on
              every earlier target's records and the new ones (MTL-TLP)

at each of --fractions of the new target's training records (chosen by
--sampler: 'tasks', whole tasks at random; 'heavy-tasks', whole tasks in
proportion to FLOPs times occurrences, where a tuner spends its trials; or
'random', some records of every task; the same ones for every method, except
that with 'heavy-tasks' a model continued from a teacher that records its
labelled tasks, distilled or fine-tuned, first complements them). Tasks of
--test-networks are never trained on; PCA and top-1 are measured on them,
for the new target. The models at --chain-fraction carry on to the next
target, so after the whole sequence the distilled and fine-tuned chains are
evaluated again on every earlier target: how much they forgot. Prints
tables, writes JSON and PNG.

With several --seeds the whole sequence runs once per seed (another draw of
each fraction's records and another initialization), in its own directory
under --work; the tables and the checks are on the medians over seeds, and
every seed's numbers are kept in the JSON. --methods runs a subset of the
comparators; distill always runs, since the checks are about it.

    benchmarks/distillation.py [--build build] [--db DB]
        [--sequence x86_64:x86-64-v3:1t,x86_64:x86-64-v2:1t,x86_64:znver5:1t]
        [--fractions 0.01,0.05,0.1,1] [--chain-fraction 0.1] [--seeds 0]
        [--sampler tasks|heavy-tasks|random]
        [--methods distill,fine-tune,scratch,multi-task]
        [--test-networks resnet50,bert_base] [--work distill-work]
        [--distill-args "--validation-split=tasks ..."]
        [--out docs/results/distillation.json]

--distill-args adds tcl-train arguments to the distill method's trainings:
how a variant of the student is measured in the same protocol.

    benchmarks/distillation.py --merge A.json,B.json --out C.json

--merge trains nothing: it joins reports of this benchmark that ran other
seeds of the same protocol (sequence, sampler, held-out networks and
distill arguments) into one with the medians over all their seeds, keeping
the methods and fractions that every report has.
"""

import argparse
import concurrent.futures
import json
import os
import shlex
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, HERE)
from cost_models import SHIPPED_DATASETS, import_dataset  # noqa: E402
from outputs import output_path  # noqa: E402

METHODS = ["distill", "distill-rdu", "fine-tune", "scratch", "multi-task"]


def train(bin_dir, db, work, name, arguments):
    """Runs tcl-train once (skipped when its report exists); its JSON report."""
    report = os.path.join(work, name + ".json")
    if not os.path.exists(report):
        command = [os.path.join(bin_dir, "tcl-train"), db] + arguments + \
            ["--json=" + report + ".partial"]
        print("running: " + " ".join(command), flush=True)
        log_path = os.path.join(work, name + ".log")
        with open(log_path, "w") as log:
            status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT)
        if status.returncode != 0:
            with open(log_path) as log:
                last = (log.read().strip().splitlines() or ["(no output)"])[-1]
            sys.exit("tcl-train failed (exit %d; %s): %s"
                     % (status.returncode, log_path, last))
        os.replace(report + ".partial", report)
    with open(report) as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--db", help="a tuning database (default: the shipped datasets, "
                                     "imported into --work)")
    parser.add_argument("--sequence",
                        default="x86_64:x86-64-v3:1t,x86_64:x86-64-v2:1t,x86_64:znver5:1t")
    parser.add_argument("--fractions", default="0.01,0.05,0.1,1")
    parser.add_argument("--chain-fraction", type=float, default=0.1)
    parser.add_argument("--sampler", choices=["tasks", "heavy-tasks", "random"],
                        default="tasks",
                        help="how a fraction's records are chosen: whole tasks "
                             "(what a tuner measures), at random or in proportion "
                             "to FLOPs times occurrences, or some of every task")
    parser.add_argument("--methods", default=",".join(METHODS),
                        help="the comparators to run beside distill")
    parser.add_argument("--test-networks", default="resnet50,bert_base")
    parser.add_argument("--model", default="mamba")
    parser.add_argument("--seeds", default="0", help="comma-separated seeds")
    parser.add_argument("--jobs", type=int, default=1,
                        help="seeds run at once, each with --threads threads")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--work", default="distill-work",
                        help="scratch directory; finished trainings are reused on a rerun")
    parser.add_argument("--out", type=output_path, default="distillation.json")
    parser.add_argument("--distill-args", default="",
                        help="tcl-train arguments added to the distill method's "
                             "trainings (shell words)")
    parser.add_argument("--merge", help="comma-separated reports of other seeds to "
                                        "join (nothing is trained)")
    args = parser.parse_args()
    if args.merge:
        report = merged_report([load_report(path) for path in args.merge.split(",")])
        finish(report, args.out)
        return
    bin_dir = os.path.join(args.build, "bin")
    sequence = args.sequence.split(",")
    fractions = [float(f) for f in args.fractions.split(",")]
    methods = [m for m in METHODS if m == "distill" or m in args.methods.split(",")]
    unknown = set(args.methods.split(",")) - set(METHODS)
    if unknown:
        sys.exit("--methods: unknown %s (known: %s)" % (", ".join(sorted(unknown)),
                                                        ", ".join(METHODS)))
    seeds = [int(seed) for seed in args.seeds.split(",")]
    if len(sequence) < 2:
        sys.exit("--sequence needs at least two targets")
    if args.chain_fraction not in fractions:
        sys.exit("--chain-fraction must be one of --fractions")
    os.makedirs(args.work, exist_ok=True)
    db = args.db or os.path.join(args.work, "dataset.db")
    if not args.db and not os.path.exists(db):
        import_dataset(bin_dir, args.work, SHIPPED_DATASETS)

    def one_seed(seed):
        work = os.path.join(args.work, "seed-%d" % seed)
        os.makedirs(work, exist_ok=True)
        return run_sequence(args, bin_dir, db, work, seed, sequence, fractions, methods)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        per_seed = list(pool.map(one_seed, seeds))
    finish(median_report(per_seed), args.out)


def finish(report, out):
    """Prints the tables and the checks of `report` and writes it, with its
    plots beside it."""
    print_tables(report)
    checks(report)
    with open(out, "w") as f:
        json.dump(report, f, indent=1)
    print("\nwrote " + out)
    plot(report, os.path.dirname(os.path.abspath(out)),
         os.path.splitext(os.path.basename(out))[0])


def load_report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        sys.exit("--merge: cannot read %s: %s" % (path, error))


def per_seed_reports(report):
    """The single-seed reports that median_report joined into `report`."""
    def seed_row(row, i):
        return {key: (row[key + "_per_seed"][i] if key + "_per_seed" in row else value)
                for key, value in row.items() if not key.endswith("_per_seed")}

    if "seeds" not in report:
        return [report]
    singles = []
    for i, seed in enumerate(report["seeds"]):
        single = {key: value for key, value in report.items() if key != "seeds"}
        single["seed"] = seed
        single["first"] = seed_row(report["first"], i)
        single["transfers"] = [dict(t, rows=[seed_row(r, i) for r in t["rows"]])
                               for t in report["transfers"]]
        single["forgetting"] = [seed_row(r, i) for r in report["forgetting"]]
        singles.append(single)
    return singles


def merged_report(reports):
    """One report over every seed of `reports`, which must share the
    protocol; rows (method, fraction) missing from any report are left out.
    A report written before --distill-args existed (none recorded) passes
    as having the same ones."""
    protocol = lambda r: (r["sequence"], r["sampler"], r["test_networks"], r["model"],
                          r["chain_fraction"])
    for report in reports[1:]:
        if protocol(report) != protocol(reports[0]):
            sys.exit("--merge: the reports ran different protocols (sequence, sampler, "
                     "held-out networks, model or chain fraction)")
    args = {r["distill_args"] for r in reports if r.get("distill_args") is not None}
    if len(args) > 1:
        sys.exit("--merge: the reports' distill arguments differ: %s" % sorted(args))
    singles = [single for report in reports for single in per_seed_reports(report)]
    seeds = [single["seed"] for single in singles]
    if len(set(seeds)) != len(seeds):
        sys.exit("--merge: a seed is in more than one report: %s" % seeds)
    methods = [m for m in METHODS if all(m in s["methods"] for s in singles)]
    fractions = sorted(set.intersection(*(set(s["fractions"]) for s in singles)))
    if not fractions:
        sys.exit("--merge: the reports have no fraction in common")
    kept = lambda row: row["method"] in methods and row["fraction"] in fractions
    for single in singles:
        single.update(methods=methods, fractions=fractions,
                      distill_args=next(iter(args), ""))
        for transfer in single["transfers"]:
            transfer["rows"] = sorted(filter(kept, transfer["rows"]), key=lambda r: (
                r["fraction"], METHODS.index(r["method"])))
        single["forgetting"] = [r for r in single["forgetting"] if r["method"] in methods]
    singles.sort(key=lambda single: single["seed"])
    return median_report(singles)


def run_sequence(args, bin_dir, db, work, seed, sequence, fractions, methods):
    """The whole sequence with one seed; its report."""
    common = ["--model=" + args.model, "--test-networks=" + args.test_networks,
              "--seed=%d" % seed, "--num-threads=%d" % args.threads]
    model = lambda name: os.path.join(work, name + ".tclm")

    first = train(bin_dir, db, work, "t0-scratch",
                  common + ["--targets=" + sequence[0], "-o", model("t0-scratch")])
    report = {"sequence": sequence, "fractions": fractions, "methods": methods,
              "model": args.model, "test_networks": args.test_networks.split(","),
              "seed": seed, "chain_fraction": args.chain_fraction,
              "sampler": args.sampler,
              "distill_args": args.distill_args,
              "first": {"target": sequence[0], "pca": first["pca"], "top1": first["top1"],
                        "parameters": first["parameters"]},
              "transfers": [], "forgetting": []}
    # The model each chain carries to the next target.
    chain = {m: model("t0-scratch") for m in ("distill", "fine-tune") if m in methods}
    # Per target, the PCA each chain had when it had just learned it.
    learned = {m: {sequence[0]: first["pca"]} for m in chain}
    for step, target in enumerate(sequence[1:], start=1):
        transfer = {"from": sequence[step - 1], "to": target, "rows": []}
        produced = {}  # (method, fraction): the name of its training
        for fraction in fractions:
            pool = [] if fraction >= 1 else ["--pool-sampler=" + args.sampler,
                                             "--pool-fraction=%g" % fraction]
            new = ["--new-target=" + target]
            for method in methods:
                name = "t%d-%s-%g" % (step, method, fraction)
                picked = pool
                if method == "distill-rdu" and fraction < 1:
                    picked = ["--pool-sampler=rdu", "--pool-fraction=%g" % fraction]
                elif method == "distill-rdu":
                    # Every record, from the same teacher: distill's training.
                    name = "t%d-distill-%g" % (step, fraction)
                if method in ("distill", "distill-rdu"):
                    extra = (["--distill=" + chain["distill"], "-o", model(name)] +
                             shlex.split(args.distill_args))
                elif method == "fine-tune":
                    extra = ["--fine-tune=" + chain["fine-tune"], "-o", model(name)]
                elif method == "scratch":
                    extra = []
                else:
                    extra = ["--multi-task", "--targets=" + ",".join(sequence[:step + 1])]
                result = train(bin_dir, db, work, name, common + new + picked + extra)
                produced[(method, fraction)] = name
                transfer["rows"].append({"method": method, "fraction": fraction,
                                         "pca": result["pca"], "top1": result["top1"],
                                         "top5": result["top5"],
                                         "parameters": result["parameters"],
                                         "train_records": result["train_records"],
                                         "train_seconds": result["train_seconds"]})
        for method in chain:
            chain[method] = model(produced[(method, args.chain_fraction)])
            row = next(r for r in transfer["rows"]
                       if r["method"] == method and r["fraction"] == args.chain_fraction)
            learned[method][target] = row["pca"]
        report["transfers"].append(transfer)

    # Forgetting: the chains' final models on every earlier target.
    for method in chain:
        for target in sequence[:-1]:
            result = train(bin_dir, db, work,
                           "final-%s-on-%s" % (method, target.replace(":", "-")),
                           common + ["--evaluate=" + chain[method], "--targets=" + target])
            report["forgetting"].append({"method": method, "target": target,
                                         "pca_when_learned": learned[method][target],
                                         "pca_after_sequence": result["pca"],
                                         "top1_after_sequence": result["top1"]})
    return report


def median_report(per_seed):
    """One report whose numbers are the medians over seeds; each number's
    per-seed values are kept beside it (`pca_per_seed`, ...)."""
    def merge(rows, keys):
        merged = dict(rows[0])
        for key in keys:
            values = [row[key] for row in rows]
            merged[key] = statistics.median(values)
            merged[key + "_per_seed"] = values
        return merged

    report = dict(per_seed[0])
    report["seeds"] = [r["seed"] for r in per_seed]
    del report["seed"]
    report["first"] = merge([r["first"] for r in per_seed], ["pca", "top1"])
    report["transfers"] = [
        dict(transfer, rows=[merge([r["transfers"][t]["rows"][i] for r in per_seed],
                                   ["pca", "top1", "top5", "train_seconds"])
                             for i in range(len(transfer["rows"]))])
        for t, transfer in enumerate(per_seed[0]["transfers"])]
    report["forgetting"] = [
        merge([r["forgetting"][i] for r in per_seed],
              ["pca_when_learned", "pca_after_sequence", "top1_after_sequence"])
        for i in range(len(per_seed[0]["forgetting"]))]
    return report


def print_tables(report):
    print("\nmedians over seeds %s" % ", ".join(map(str, report["seeds"])))
    print("first target %s from scratch: PCA %.4f, top-1 %.4f, %d parameters"
          % (report["first"]["target"], report["first"]["pca"], report["first"]["top1"],
             report["first"]["parameters"]))
    for transfer in report["transfers"]:
        print("\n== %s -> %s: PCA / top-1 on the held-out networks of %s"
              % (transfer["from"], transfer["to"], transfer["to"]))
        print("%-11s %11s" % ("method", "parameters") +
              "".join("%17s" % ("%g%%" % (100 * f)) for f in report["fractions"]))
        for method in report["methods"]:
            rows = {r["fraction"]: r for r in transfer["rows"] if r["method"] == method}
            print("%-11s %11d" % (method, rows[report["fractions"][0]]["parameters"]) +
                  "".join("%17s" % ("%.4f / %.4f" % (rows[f]["pca"], rows[f]["top1"]))
                          for f in report["fractions"]))
    print("\n== forgetting: PCA on earlier targets after the whole sequence")
    print("%-11s %-24s %12s %12s %8s" % ("method", "target", "when learned", "after", "drop"))
    for row in report["forgetting"]:
        print("%-11s %-24s %12.4f %12.4f %8.4f" % (
            row["method"], row["target"], row["pca_when_learned"], row["pca_after_sequence"],
            row["pca_when_learned"] - row["pca_after_sequence"]))


def checks(report):
    """Issue 8's criteria, as measured here."""
    chain = report["chain_fraction"]
    print("\n== checks")
    for transfer in report["transfers"]:
        row = lambda method, fraction: next(
            r for r in transfer["rows"] if r["method"] == method and r["fraction"] == fraction)
        if 1.0 not in report["fractions"] or "scratch" not in report["methods"]:
            continue
        scratch = row("scratch", 1.0)
        for method in ("distill", "distill-rdu"):
            if method not in report["methods"]:
                continue
            distilled = row(method, chain)
            print("%s -> %s: %s top-1 at %g%% %.4f vs scratch at 100%% %.4f: %s" % (
                transfer["from"], transfer["to"], method, 100 * chain, distilled["top1"],
                scratch["top1"], "met" if distilled["top1"] >= scratch["top1"] else "NOT met"))
            pairs = list(zip(distilled["top1_per_seed"], scratch["top1_per_seed"]))
            print("  per seed: %s" % ", ".join("%.4f vs %.4f" % pair for pair in pairs))
            # Both models of a seed share its split and its draw of the
            # fraction, so their difference carries less of the seed's luck
            # than the two medians do.
            differences = [student - bar for student, bar in pairs]
            print("  paired: median difference %+.4f, at least scratch's on %d of %d seeds"
                  % (statistics.median(differences), sum(d >= 0 for d in differences),
                     len(differences)))
    first = [r for r in report["forgetting"]
             if r["method"] == "distill" and r["target"] == report["sequence"][0]]
    for row in first:
        drop = 100 * (row["pca_when_learned"] - row["pca_after_sequence"])
        print("distilled chain forgets %.2f PCA points of %s: %s" % (
            drop, row["target"], "met" if drop <= 3 else "NOT met"))
    counts = {r["parameters"] for t in report["transfers"] for r in t["rows"]
              if r["method"].startswith("distill")} | {report["first"]["parameters"]}
    print("distilled parameter counts across targets: %s: %s" % (
        sorted(counts), "met" if len(counts) == 1 else "NOT met"))


def plot(report, directory, stem):
    """One PNG per transfer, named after the JSON report (`stem`_1.png, ...),
    so that a run never overwrites the plots of another."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing: no plots")
        return
    for index, transfer in enumerate(report["transfers"], start=1):
        figure, axes = plt.subplots(1, 2, figsize=(11, 4))
        for axis, metric in zip(axes, ["pca", "top1"]):
            for number, method in enumerate(report["methods"]):
                rows = sorted((r for r in transfer["rows"] if r["method"] == method),
                              key=lambda r: r["fraction"])
                axis.plot([100 * r["fraction"] for r in rows], [r[metric] for r in rows],
                          marker="o", color="C%d" % number, label=method)
            axis.set_xscale("log")
            axis.set_xlabel("%% of %s's training records" % transfer["to"])
            axis.set_ylabel({"pca": "pairwise accuracy", "top1": "top-1"}[metric])
        axes[0].legend()
        figure.suptitle("%s -> %s, held-out networks" % (transfer["from"], transfer["to"]))
        figure.tight_layout()
        path = os.path.join(directory, "%s_%d.png" % (stem, index))
        figure.savefig(path, dpi=110)
        print("wrote " + path)


if __name__ == "__main__":
    main()
