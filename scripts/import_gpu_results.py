#!/usr/bin/python3
"""Turns tcl-runner results into tuning-database records (JSON Lines).

The GPU half of a measurement (scripts/h200_run.sh) leaves, per network of
the batch, in one directory:
  <network>.jsonl        tcl-runner's results: a line per kernel and per
                         cuBLAS baseline
  <network>-build.jsonl  tcl-gpu-batch's build log: each kernel's task, knob
                         assignment, script hash and build status
  <network>-tasks.jsonl  the batch's tasks, in the database's form
  gpu.csv                nvidia-smi's description of the GPU (optional)
This writes the target, the tasks, a record per kernel (kernels that did not
build included, as compile errors) and a baseline per cuBLAS or cuDNN
timing, in the form `tcl-db import` reads:

    scripts/import_gpu_results.py OUT_DIR [--target nvvm:sm_90] -o gpu.jsonl
    tcl-db import tcl.db gpu.jsonl

Kernel names ref-<task> are the batch's reference kernels, not candidates,
and are left out. Importing the same results twice adds nothing: a record's
uid is a hash of the target, the directory's name, the kernel and its
schedule.
"""

import argparse
import csv
import glob
import hashlib
import json
import os
import sys
import time

# tcl-runner's statuses as the database's (TuningDatabase.h).
STATUS = {"ok": "ok", "wrong_result": "wrong_result", "crash": "crash",
          "launch_error": "crash", "load_error": "compile_error",
          "bad_config": "compile_error"}


def read_lines(path):
    with open(path) as f:
        for number, line in enumerate(f, start=1):
            if line.strip():
                try:
                    yield json.loads(line)
                except ValueError as error:
                    sys.exit("%s:%d: not JSON: %s" % (path, number, error))


def gpu_name(directory, results):
    path = os.path.join(directory, "gpu.csv")
    if os.path.exists(path):
        with open(path) as f:
            rows = list(csv.DictReader(f, skipinitialspace=True))
        if rows and rows[0].get("name"):
            return rows[0]["name"].strip()
    for result in results:
        if result.get("device"):
            return result["device"]
    return "unknown GPU"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", help="the results directory ($OUT of h200_run.sh)")
    parser.add_argument("--target", default="nvvm:sm_90")
    parser.add_argument("--repeats", type=int, default=20,
                        help="timed launches per kernel (h200_run.sh's --repeats)")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    if not args.target.startswith("nvvm:"):
        sys.exit("--target must be an nvvm target, such as nvvm:sm_90")
    chip = args.target.split(":", 1)[1]

    result_files = sorted(path for path in glob.glob(os.path.join(args.directory, "*.jsonl"))
                          if not path.endswith(("build.jsonl", "tasks.jsonl")))
    if not result_files:
        sys.exit("%s: no tcl-runner results (<network>.jsonl)" % args.directory)
    tasks, records, baselines = {}, [], []
    run = os.path.basename(os.path.abspath(args.directory))
    now = int(time.time())
    for results_path in result_files:
        network = os.path.basename(results_path)[:-len(".jsonl")]
        build_path = os.path.join(args.directory, network + "-build.jsonl")
        tasks_path = os.path.join(args.directory, network + "-tasks.jsonl")
        for path in (build_path, tasks_path):
            if not os.path.exists(path):
                sys.exit("%s: missing %s" % (results_path, os.path.basename(path)))
        for task in read_lines(tasks_path):
            known = tasks.setdefault(task["key"], task)
            for name, count in task.get("networks", {}).items():
                known.setdefault("networks", {})[name] = count
        builds = {entry["name"]: entry for entry in read_lines(build_path)}
        results = list(read_lines(results_path))
        machine = {"cores": 0, "cpu_model": gpu_name(args.directory, results),
                   "host_cpu": chip}
        measured = set()
        for result in results:
            if result.get("baseline"):
                baselines.append({
                    "type": "baseline", "task": result["task"], "target": args.target,
                    "machine": machine, "library": result["baseline"],
                    "primitive": result.get("primitive", "gemm"),
                    "status": "ok" if result["status"] == "ok" else "crash",
                    "median_s": result.get("median_s"), "min_s": result.get("min_s"),
                    "samples": args.repeats if result["status"] == "ok" else 0,
                    "error": result.get("message", ""), "created_at": now})
                continue
            name = result["name"]
            if name.startswith("ref-"):
                continue
            build = builds.get(name)
            if build is None:
                sys.exit("%s: kernel '%s' is not in %s" % (results_path, name, build_path))
            measured.add(name)
            records.append(record(args.target, run, machine, build, result, now, args.repeats))
        for name, build in builds.items():
            if build["status"] != "built" and not name.startswith("ref-"):
                records.append(record(args.target, run, machine, build,
                                      {"status": "load_error",
                                       "message": build.get("message", "")}, now, 0))

    with open(args.output, "w") as out:
        out.write(json.dumps({"type": "target", "name": args.target, "cpu": chip,
                              "features": "", "threads": 1}) + "\n")
        for task in tasks.values():
            task = dict(task, type="task")
            out.write(json.dumps(task) + "\n")
        for line in records + baselines:
            out.write(json.dumps(line) + "\n")
    valid = sum(1 for r in records if r["status"] == "ok")
    print("%s: %d tasks, %d records (%d valid), %d baselines for %s"
          % (args.output, len(tasks), len(records), valid, len(baselines), args.target))


def record(target, run, machine, build, result, now, repeats):
    status = STATUS.get(result["status"])
    if status is None:
        sys.exit("kernel '%s': unknown tcl-runner status '%s'" % (build["name"], result["status"]))
    uid = hashlib.sha1("|".join([target, run, build["name"], build["schedule"]])
                       .encode()).hexdigest()[:32]
    line = {"type": "record", "task": build["task"], "target": target, "machine": machine,
            "assignment": build["schedule"], "script_hash": build.get("script_hash", ""),
            "status": status, "samples": repeats if status == "ok" else 0,
            "compile_s": build.get("compile_s", 0.0), "wall_s": 0.0, "vector_ops": 0,
            "scalar_fallback": False, "error": result.get("message", ""),
            "created_at": now, "uid": uid}
    if status == "ok":
        line["median_s"] = result["median_s"]
        line["min_s"] = result["min_s"]
    return line


if __name__ == "__main__":
    main()
