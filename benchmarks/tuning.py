#!/usr/bin/python3
"""Tuners side by side on whole networks (issue 6's benchmark).

For each network (the zoo's ResNet-50 and BERT-base by default) and each
method, `tcl-opt --tcl-tune` tunes the network --reps times (seeds 0..reps-1)
with --trials candidates, each run in its own database. Repetition r also
trains its models with seed r (initial weights, batches and, for a new
target, which tasks it has seen): one trained model is one draw. Replayed
on the schedules that tuning ResNet-50 on znver5 measured, the first rounds
of two models distilled with seeds 0 and 1 found 0.82 and 0.90 of each
task's best, more than the methods differ by (docs/results/tuning_znver5.md).

  tcl         the Mamba cost model + the RDU sampler
  tenset-mlp  TenSet's MLP, the model's top-k (TenSet's tuner)
  xgboost     Ansor's XGBoost, untrained, retrained online, top-k
  random      no model: random candidates from the same search

Mamba and TenSet-MLP are pre-trained on the shipped datasets with every task
of the benchmarked networks held out (`tcl-train --test-networks=...`).

For a target that is new to tcl's models (issue 8), two more methods tune
with Mamba models that have seen only --new-target-fraction of --target's
records (those of the benchmarked networks held out, as always), whole
tasks at random by default (--new-target-sampler):

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
wall time (PNG), in three units:

  own run   over the sum of oneDNN's per-op latencies measured in the same
            run ("vs oneDNN"; each op's faster of the run's two measurements,
            at its start and end). A shared machine's speed can drift by tens
            of percent between runs minutes apart; this ratio does not.
  common    over one sum for every run of the network: each op's fastest
            oneDNN latency over all the runs ("vs best oneDNN"). oneDNN's
            time for one op can differ by 13% between runs of a quiet
            machine, where the tuned estimates agree within 1%; this unit
            carries none of that, and all of any drift.
  re-measured
            seconds, with every schedule a run would apply at a point of
            its curve (per task, the one the tuner would choose) measured
            again after all the runs, together, --remeasure-passes times in
            shuffled orders (median over passes of each pass's fastest
            sample). This unit carries neither drift between runs nor the
            luck of a run's fastest measurement (the fastest of hundreds of
            noisy medians is biased low); the others carry both. The tuner
            measures each task's fastest schedule again before choosing it
            (TuneOptions::confirmations); the schedules it would have
            chosen without those measurements are measured again too, and
            reported beside the final.

In each unit: the trials and the wall time each method needs to reach the
TenSet-MLP tuner's final value, as ratios to TenSet-MLP's. Also the final
estimate, in milliseconds and over oneDNN; the final end-to-end latency of
each method beside the default schedule's; the run's wall time by phase
(searching and sampling, measuring, updating the model). Medians over
repetitions. The trials to that value are a median twice over: over the
runs that reach it, with how many do, and over all runs, a run that never
reaches it counting as beyond the budget ("all runs"; none when the
median run is such a run). Prints a table and writes JSON.

    benchmarks/tuning.py [--build build] [--networks resnet50,bert_base]
        [--methods tcl,tenset-mlp,xgboost,random] [--trials 1000] [--reps 3]
        [--tcl-args "update-steps=20"]
        [--work tuning-work] [--remeasure-passes 5]
        [--out docs/results/tuning.json]
"""

import argparse
import json
import math
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, HERE)
from cost_models import SHIPPED_DATASETS, import_dataset  # noqa: E402
from outputs import output_path  # noqa: E402

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


def trained_model(bin_dir, work, name, arguments, seed):
    """models/`name`.tclm, trained by `tcl-train DATASET arguments` with
    `seed` unless it exists; DATASET holds the shipped datasets. Seed 0's
    models keep their names, so that earlier work directories resume."""
    if seed:
        name += "-seed%d" % seed
        arguments = arguments + ["--seed=%d" % seed]
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


def method_model(bin_dir, work, method, args, seed):
    """The model file (or untrained kind) `method` tunes with, trained with
    `seed`."""
    spec = METHODS[method]
    if spec.get("untrained"):
        return spec["model"]
    held_out = ["--model=" + spec["model"], "--test-networks=" + args.networks]
    transfer = spec.get("transfer")
    if transfer is None:
        return trained_model(bin_dir, work, spec["model"], held_out, seed)
    few = ["--new-target=" + args.target, "--pool-sampler=" + args.new_target_sampler,
           "--pool-fraction=%g" % args.new_target_fraction]
    if transfer == "scratch":
        return trained_model(bin_dir, work, "%s-scratch%s" % (spec["model"], share_of(args)),
                             held_out + few, seed)
    teacher = trained_model(bin_dir, work, spec["model"] + "-teacher",
                            held_out + ["--targets=" + args.source_targets], seed)
    return trained_model(bin_dir, work, "%s-distilled%s" % (spec["model"], share_of(args)),
                         held_out + few + ["--distill=" + teacher], seed)


def share_of(args):
    """What names a model that saw a share of the new target, and its runs:
    "-0.1" for a tenth of every task, "-tasks-0.1" for whole tasks."""
    return share_name(args.new_target_sampler, args.new_target_fraction)


def share_name(sampler, fraction):
    return "%s-%g" % ("" if sampler == "random" else "-" + sampler, fraction)


def run_prefix(network, method, report):
    """The name of `method`'s runs of `network` in `report`, less the rep."""
    share = (share_name(report["new_target_sampler"], report["new_target_fraction"])
             if METHODS[method].get("transfer") else "")
    return "%s-%s%s" % (network, method, share)


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


def run_records(db):
    """[(task key, assignment, median seconds or None when it was not
    valid)] in the order the run measured them. A schedule's first record
    is a trial; later ones are the tuner's confirmations (TuneOptions::
    confirmations)."""
    with sqlite3.connect(db) as connection:
        return connection.execute(
            """select t.key, s.assignment,
                      case when r.status = 'ok' and r.scalar_fallback = 0
                           then r.median_s end
               from records r join schedules s on s.id = r.schedule_id
               join tasks t on t.id = s.task_id order by r.id""").fetchall()


def network_occurrences(db):
    """{task key: occurrences in the network} of a run's database."""
    with sqlite3.connect(db) as connection:
        return dict(connection.execute(
            """select t.key, tn.occurrences from task_networks tn
               join tasks t on t.id = tn.task_id"""))


def picks(records, trials):
    """For each entry of `trials` (ascending), {task key: assignment}: the
    schedule the run would apply after that many trials, chosen as the
    tuner chooses (TuningTask::best): the fastest by the median of its
    measurements, never one that failed. The last entry also sees the
    records after the last trial (the confirmations)."""
    timings, failed, snapshots = {}, set(), []

    def snapshot():
        fastest = {}
        for (key, assignment), seconds in timings.items():
            if (key, assignment) in failed:
                continue
            latency = statistics.median(seconds)
            if key not in fastest or latency < fastest[key][1]:
                fastest[key] = (assignment, latency)
        return {key: assignment for key, (assignment, _) in fastest.items()}

    wanted = list(trials)
    count = 0
    for key, assignment, seconds in records:
        schedule = (key, assignment)
        if schedule not in timings and schedule not in failed:
            # A new trial: the snapshots after `count` trials are complete.
            while len(wanted) > 1 and wanted[0] <= count:
                snapshots.append(snapshot())
                wanted.pop(0)
            count += 1
        if seconds is None:
            failed.add(schedule)
        else:
            timings.setdefault(schedule, []).append(seconds)
    while wanted:
        snapshots.append(snapshot())
        wanted.pop(0)
    return snapshots


def trial_records(records):
    """`records` up to the last trial's first record: without the
    confirmations that follow it."""
    seen, end = set(), 0
    for index, (key, assignment, _) in enumerate(records):
        if (key, assignment) not in seen:
            seen.add((key, assignment))
            end = index + 1
    return records[:end]


def remeasure(bin_dir, work, network, target, runs, passes):
    """{(task key, assignment): seconds}: every schedule that a run of
    `network` would have applied at a point of its curve (`picks` of each
    run) or at its end without its confirmations (`unconfirmed`), measured
    again, all together, `passes` times, each pass in a fresh
    order (`tcl-collect --remeasure-before` on one database seeded with them).
    A schedule's seconds are the median over the passes of each pass's
    fastest sample: on a shared VM a schedule's median sample differed by
    23% between passes minutes apart (median over BERT-base's schedules),
    its fastest by 12%. Each pass is kept in WORK/network-remeasured.json,
    so an interrupted benchmark resumes."""
    wanted = set()
    for r in runs:
        for snapshot in r["picks"] + [r["unconfirmed"]]:
            wanted |= set(snapshot.items())
    names = sorted(key + " " + assignment for key, assignment in wanted)
    cache = os.path.join(work, network + "-remeasured.json")
    state = {"schedules": names, "passes": []}
    if os.path.exists(cache):
        with open(cache) as f:
            stored = json.load(f)
        if stored["schedules"] == names:
            state = stored
    if len(state["passes"]) < passes:
        seeds = remeasure_seeds(bin_dir, work, runs, wanted)
    db = os.path.join(work, network + "-remeasured.db")
    while len(state["passes"]) < passes:
        pass_index = len(state["passes"])
        tasks, records = seeds
        random.Random(pass_index).shuffle(records)
        lines = os.path.join(work, network + "-remeasured.jsonl")
        with open(lines, "w") as f:
            f.writelines(json.dumps(entry) + "\n" for entry in tasks + records)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        run([os.path.join(bin_dir, "tcl-db"), "import", db, lines],
            stdout=subprocess.DEVNULL)
        start = int(time.time())
        run([os.path.join(bin_dir, "tcl-collect"), "--db=" + db, "--targets=" + target,
             "--remeasure-before=%d" % start, "--no-progress"])
        with sqlite3.connect(db) as connection:
            state["passes"].append({key + " " + assignment: seconds for key, assignment, seconds in
                                    connection.execute(
                """select t.key, s.assignment, r.min_s from records r
                   join schedules s on s.id = r.schedule_id join tasks t on t.id = s.task_id
                   where r.status = 'ok' and r.created_at >= ?""", (start,))})
        with open(cache, "w") as f:
            json.dump(state, f)
    values = {}
    for name in names:
        measured = [p[name] for p in state["passes"][:passes] if name in p]
        if measured:
            key, assignment = name.split(" ", 1)
            values[(key, assignment)] = statistics.median(measured)
    missing = len(names) - len(values)
    if missing:
        print("%s: %d of %d schedules failed every re-measurement" % (network, missing, len(names)))
    return values


def remeasure_seeds(bin_dir, work, runs, wanted):
    """(task and target lines, one record line per wanted schedule) from
    the runs' databases (`tcl-db export`): what `remeasure` imports."""
    header, records, seen = {}, [], set()
    for r in runs:
        exported = os.path.join(work, "export.jsonl")
        run([os.path.join(bin_dir, "tcl-db"), "export", r["db"], "-o", exported],
            stdout=subprocess.DEVNULL)
        with open(exported) as f:
            for line in f:
                entry = json.loads(line)
                if entry["type"] == "task":
                    header.setdefault(("task", entry["key"]), entry)
                elif entry["type"] == "target":
                    header.setdefault(("target", entry["name"]), entry)
                elif entry["type"] == "record":
                    schedule = (entry["task"], entry["assignment"])
                    if schedule in wanted and schedule not in seen:
                        seen.add(schedule)
                        records.append(entry)
        os.remove(exported)
    targets = [e for (kind, _), e in header.items() if kind == "target"]
    tasks = [e for (kind, _), e in header.items() if kind == "task"]
    return targets + tasks, records


#: The units of a curve point (its index) and their suffix in the report.
UNITS = ((3, ""), (4, "_common"), (5, "_remeasured"))
UNIT_NAMES = {"": "own run", "_common": "common", "_remeasured": "re-measured"}


def first_reaching(points, target, index, unit=3):
    """Trials (index 0) or seconds (index 1) when the run's estimate in
    `unit` (3: over its own oneDNN sum, 4: the common unit, 5: re-measured
    seconds) first is <= target."""
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
    parser.add_argument("--new-target-sampler", choices=["tasks", "random"], default="tasks",
                        help="tcl-distilled, tcl-scratch: that share as whole tasks "
                        "(what a tuner measures) or as some records of every task")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--tcl-args", default="",
                        help="more --tcl-tune options for tcl's methods (tcl, "
                        "tcl-distilled, tcl-scratch), e.g. 'update-steps=20'; "
                        "the baselines tune as their papers do. Give each "
                        "setting its own --work")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--work", default="tuning-work",
                        help="databases, histories and models (kept, for resuming)")
    parser.add_argument("--out", type=output_path, default="tuning.json")
    parser.add_argument("--remeasure-passes", type=int, default=5,
                        help="times every schedule the runs applied is measured again, "
                        "all together, for the re-measured unit (0: no such unit)")
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

    results = {}
    # Repetition by repetition, so that an interrupted benchmark already
    # holds every method and network side by side.
    for rep in range(args.reps):
        models = {method: method_model(bin_dir, args.work, method, args, rep)
                  for method in methods}
        for network in networks:
            model_file = os.path.join(args.build, "zoo", network + ".mlir")
            for method in methods:
                spec = METHODS[method]
                # A model that saw a share of the new target is named with it,
                # so that runs of several shares share one --work.
                share = share_of(args) if spec.get("transfer") else ""
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
                    if spec["model"] == "mamba":
                        options += args.tcl_args.split()
                    run([os.path.join(bin_dir, "tcl-opt"), model_file,
                         "--tcl-tune=" + " ".join(options), "-o", os.devnull])
                    rounds, final = read_history(history)
                onednn = onednn_task_seconds(db)
                results[name] = {"network": network, "method": method, "rep": rep,
                                 "db": db, "onednn": onednn,
                                 "curve": curve(rounds, onednn_network_seconds(onednn)),
                                 "phases": phases(rounds), "final": final}

    report = {"target": args.target, "trials": args.trials, "reps": args.reps,
              "new_target_fraction": args.new_target_fraction,
              "new_target_sampler": args.new_target_sampler,
              "source_targets": args.source_targets.split(","),
              "batch": args.batch, "tcl_args": args.tcl_args,
              # Repetition r's models were trained with seed r.
              "model_seeds": list(range(args.reps)), "networks": {}}
    for network in networks:
        runs = {m: [r for r in results.values()
                    if r["network"] == network and r["method"] == m] for m in methods}
        common = fastest_onednn_seconds([r["onednn"] for rs in runs.values() for r in rs])
        every_run = [r for rs in runs.values() for r in rs]
        for r in every_run:
            records = run_records(r["db"])
            r["picks"] = picks(records, [point[0] for point in r["curve"]])
            r["unconfirmed"] = picks(trial_records(records), [r["curve"][-1][0]])[0] \
                if r["curve"] else {}
        remeasured = (remeasure(bin_dir, args.work, network, args.target, every_run,
                                args.remeasure_passes) if args.remeasure_passes else {})
        for r in every_run:
            occurrences = network_occurrences(r["db"])
            again = lambda snapshot: sum(occurrences[key] * remeasured[(key, assignment)]
                                         for key, assignment in snapshot.items()) \
                if all(item in remeasured for item in snapshot.items()) else None
            r["curve"] = [point[:4] + ((point[2] / common) if common else None,
                                       again(snapshot))
                          for point, snapshot in zip(r["curve"], r["picks"])]
            r["final_unconfirmed"] = again(r["unconfirmed"]) if r["curve"] else None
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
                   "final_vs_best_onednn": median(final_in(method, 4)),
                   "final_remeasured_s": median(final_in(method, 5)),
                   # The same runs' picks without their confirmations.
                   "final_unconfirmed_remeasured_s": median(
                       [r["final_unconfirmed"] for r in runs[method]
                        if r.get("final_unconfirmed") is not None])}
            # The target every method races to: TenSet-MLP's final estimate,
            # in each unit.
            for unit, suffix in UNITS:
                reference = median(final_in("tenset-mlp", unit)) if "tenset-mlp" in runs else None
                trials_to = [first_reaching(r["curve"], reference, 0, unit)
                             for r in runs[method]] if reference else []
                seconds_to = [first_reaching(r["curve"], reference, 1, unit)
                              for r in runs[method]] if reference else []
                reached = [t for t in trials_to if t is not None]
                row["trials_to_mlp_final" + suffix] = median(reached)
                row["runs_reaching" + suffix] = len(reached)
                # The stricter median: over every run, one that never
                # reaches the target counting as beyond the budget (None
                # when the median run is such a run).
                counted = median([math.inf if t is None else t for t in trials_to])
                row["trials_to_mlp_final_counting_misses" + suffix] = \
                    None if counted is None or math.isinf(counted) else counted
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
            for _, suffix in UNITS:
                ratio = lambda key: (mlp_row[key] / row[key]) \
                    if mlp_row and row[key] and mlp_row[key] else None
                row["trials_speedup_vs_mlp" + suffix] = ratio("trials_to_mlp_final" + suffix)
                row["time_speedup_vs_mlp" + suffix] = ratio("seconds_to_mlp_final" + suffix)
            if mlp_row and row["final_remeasured_s"] and mlp_row["final_remeasured_s"]:
                row["remeasured_ratio_mlp_over_method"] = (
                    mlp_row["final_remeasured_s"] / row["final_remeasured_s"])
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
        print("%-13s %13s %10s %13s %13s %9s %13s %11s %9s" % (
            "method", "final est.", "vs oneDNN", "vs best dnnl", "re-measured", "MLP/this",
            "end to end", "e2e/default", "MLP/this"))
        for row in rows:
            print("%-13s %13s %10s %13s %13s %9s %13s %11s %9s" % (
                row["method"],
                fmt(row["final_estimated_s"] and row["final_estimated_s"] * 1e3, "%.3f ms"),
                fmt(row["final_vs_onednn"], "%.3f"), fmt(row["final_vs_best_onednn"], "%.3f"),
                fmt(row["final_remeasured_s"] and row["final_remeasured_s"] * 1e3, "%.3f ms"),
                fmt(row.get("remeasured_ratio_mlp_over_method"), "%.3f"),
                fmt(row["end_to_end_tuned_s"] and row["end_to_end_tuned_s"] * 1e3, "%.2f ms"),
                fmt(row["end_to_end_tuned_over_default"], "%.3f"),
                fmt(row.get("latency_ratio_mlp_over_method"), "%.3f")))
        print("to TenSet-MLP's final, in each unit (own run: vs oneDNN; common: vs best oneDNN;"
              " re-measured: the applied schedules measured again together):")
        print("%-13s %-12s %12s %10s %9s %11s %9s" % (
            "method", "unit", "trials", "all runs", "speedup", "seconds", "speedup"))
        for row in rows:
            for _, suffix in UNITS:
                print("%-13s %-12s %12s %10s %9s %11s %9s" % (
                    row["method"], UNIT_NAMES[suffix],
                    fmt(row["trials_to_mlp_final" + suffix], "%d") +
                    " (%d/%d)" % (row["runs_reaching" + suffix], row["runs"]),
                    fmt(row["trials_to_mlp_final_counting_misses" + suffix], "%d"),
                    fmt(row["trials_speedup_vs_mlp" + suffix], "%.2fx"),
                    fmt(row["seconds_to_mlp_final" + suffix], "%.0f s"),
                    fmt(row["time_speedup_vs_mlp" + suffix], "%.2fx")))
        print("re-measured final without the confirmations (the picks of the same runs' "
              "trials alone): " + "; ".join(
                  "%s %s" % (row["method"], fmt(row["final_unconfirmed_remeasured_s"] and
                                                row["final_unconfirmed_remeasured_s"] * 1e3,
                                                "%.3f ms")) for row in rows))
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
    units = ((3, "over the run's own oneDNN sum"), (4, "over the fastest oneDNN sum"),
             (5, "re-measured (s)"))
    for network, data in report["networks"].items():
        figure, axes = plt.subplots(3, 2, figsize=(11, 11))
        for method in methods:
            curves = [c for name, c in data["curves"].items()
                      if name.rsplit("-", 1)[0] == run_prefix(network, method, report) and c]
            for (unit, unit_label), unit_axes in zip(units, axes):
                for index, (axis, xlabel) in enumerate(zip(unit_axes,
                                                           ["trials", "wall time (s)"])):
                    for rep, points in enumerate(curves):
                        shown = [p for p in points if p[unit] is not None]
                        axis.plot([p[index] for p in shown], [p[unit] for p in shown],
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
