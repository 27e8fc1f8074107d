#!/usr/bin/python3
"""Where two tuners' runs part: the tasks behind the gap between their finals.

Reads a benchmarks/tuning.py work directory, each run's rounds (RUN.jsonl)
and database (RUN.db), for the runs of two methods on one network. Per task
it prints the median over each method's runs of occurrences x best latency
(the task's share of the estimated network time) after --at trials and at
the end, and the task's part of the gap between the two methods' finals.
For the --top tasks of the largest gap, it prints each run's best schedule
and how many of the run's measured schedules of that task took each value
of --knob: whether a tuner never measured a value, or measured it and
found it slow.

    benchmarks/tuning_tasks.py WORK --network resnet50 \\
        --methods tcl-distilled-tasks-0.1,tcl-scratch-tasks-0.1 \\
        --knob reg_w --out tasks.json

The figures are the runs' own measurements (tuning.py re-measures only the
applied schedules), so they rank the tasks, not the methods.
"""

import argparse
import collections
import glob
import json
import os
import re
import sqlite3
import statistics

from tuning import read_history
from outputs import output_path


def runs_of(work, network, method):
    """The run names (files RUN.jsonl and RUN.db) of `method` on `network`."""
    pattern = os.path.join(work, "%s-%s-*.jsonl" % (network, method))
    names = [os.path.basename(path)[:-len(".jsonl")] for path in sorted(glob.glob(pattern))]
    return [name for name in names if re.fullmatch(r".*-\d+", name)]


def task_bests(work, run, at):
    """Per task key, its best latency after `at` trials and at the end."""
    early, final = {}, {}
    rounds, _ = read_history(os.path.join(work, run + ".jsonl"))
    for round_ in rounds:
        final[round_["task"]] = round_["task_best_s"]
        if round_["trials"] <= at:
            early[round_["task"]] = round_["task_best_s"]
    return early, final


def occurrences(database, network):
    """Per task key: its kind and how often `network` runs it."""
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT t.key, t.kind, n.occurrences FROM tasks t "
            "JOIN task_networks n ON n.task_id = t.id WHERE n.network = ?", (network,))
        return {key: (kind, count) for key, kind, count in rows}


def schedules(database, key):
    """The task's measured valid schedules: (seconds, {knob: value}), fastest first."""
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT r.median_s, s.assignment FROM records r "
            "JOIN schedules s ON s.id = r.schedule_id JOIN tasks t ON t.id = s.task_id "
            "WHERE t.key = ? AND r.status = 'ok' ORDER BY r.median_s", (key,)).fetchall()
    result = []
    for seconds, assignment in rows:
        knobs = {}
        for item in assignment.split(","):
            name, _, value = item.partition("=")
            knobs[name.rpartition(".")[2]] = value
        result.append((seconds, knobs))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("work", help="benchmarks/tuning.py's --work directory")
    parser.add_argument("--network", default="resnet50")
    parser.add_argument("--methods", required=True,
                        help="two run prefixes, A,B (the gap is A - B)")
    parser.add_argument("--at", type=int, default=600, help="trials of the early column")
    parser.add_argument("--top", type=int, default=3, help="tasks to show schedules of")
    parser.add_argument("--knob", default="reg_w", help="knob whose values are counted")
    parser.add_argument("--out", type=output_path, help="JSON file to write")
    args = parser.parse_args()

    methods = args.methods.split(",")
    if len(methods) != 2:
        parser.error("--methods takes two run prefixes")
    runs = {method: runs_of(args.work, args.network, method) for method in methods}
    for method, names in runs.items():
        if not names:
            parser.error("no runs of %s-%s in %s" % (args.network, method, args.work))
    tasks = occurrences(os.path.join(args.work, runs[methods[0]][0] + ".db"), args.network)
    bests = {method: [task_bests(args.work, run, args.at) for run in names]
             for method, names in runs.items()}

    rows = []
    for key, (kind, count) in tasks.items():
        row = {"task": key, "kind": kind, "occurrences": count}
        complete = True
        for method in methods:
            for column, which in (("at", 0), ("final", 1)):
                values = [run[which].get(key) for run in bests[method]]
                if None in values:
                    complete = False
                    break
                row["%s_%s_ms" % (method, column)] = count * statistics.median(values) * 1e3
        if complete:
            row["gap_ms"] = row["%s_final_ms" % methods[0]] - row["%s_final_ms" % methods[1]]
            rows.append(row)
    rows.sort(key=lambda row: -row["gap_ms"])

    print("%s on %s: occurrences x median best latency (ms), after %d trials and at the end"
          % (args.network, args.work, args.at))
    print("%-18s %-10s %4s  %21s  %21s  %7s" % ("task", "kind", "occ", methods[0][:21],
                                                 methods[1][:21], "gap"))
    for row in rows:
        print("%-18s %-10s %4d  %10.3f %10.3f  %10.3f %10.3f  %7.3f" % (
            row["task"], row["kind"], row["occurrences"],
            row["%s_at_ms" % methods[0]], row["%s_final_ms" % methods[0]],
            row["%s_at_ms" % methods[1]], row["%s_final_ms" % methods[1]], row["gap_ms"]))
    print("total gap %.3f ms over %d tasks" % (sum(row["gap_ms"] for row in rows), len(rows)))

    details = []
    for row in rows[:args.top]:
        print("\n== task %s (%s, %d occurrences): each run's best, and its schedules by %s"
              % (row["task"], row["kind"], row["occurrences"], args.knob))
        for method in methods:
            for run in runs[method]:
                measured = schedules(os.path.join(args.work, run + ".db"), row["task"])
                if not measured:
                    continue
                counts = collections.Counter(knobs.get(args.knob, "-") for _, knobs in measured)
                fastest = {}
                for seconds, knobs in measured:
                    fastest.setdefault(knobs.get(args.knob, "-"), seconds)
                best_seconds, best_knobs = measured[0]
                print("%-36s best %.3f ms  %s" % (run, best_seconds * 1e3, ",".join(
                    "%s=%s" % item for item in best_knobs.items())))
                print("%-36s %s=value: count, fastest ms  %s" % ("", args.knob, "  ".join(
                    "%s: %d, %.3f" % (value, counts[value], fastest[value] * 1e3)
                    for value in sorted(counts, key=lambda v: (len(v), v)))))
                details.append({"task": row["task"], "run": run, "best_ms": best_seconds * 1e3,
                                "best": best_knobs, "knob": args.knob,
                                "counts": dict(counts),
                                "fastest_ms": {v: s * 1e3 for v, s in fastest.items()}})
    if args.out:
        with open(args.out, "w") as out:
            json.dump({"network": args.network, "methods": methods, "at": args.at,
                       "runs": runs, "tasks": rows, "schedules": details}, out, indent=1)
        print("\nwrote %s" % args.out)


if __name__ == "__main__":
    main()
