#!/usr/bin/python3
"""Correctness of the CPU schedule spaces: draws N random legal schedules
for every shape in test/Space/Inputs/shapes (every template family, with
prime and non-dividing sizes), compiles each, and checks its outputs against
the naive-loops reference. Prints a table per shape and per kind, writes
JSON, and exits 1 on any failure, mismatch or scalar fallback.

    benchmarks/random_schedules.py [--build build] [--count 200] [--out FILE]
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from outputs import output_path

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--count", type=int, default=200,
                        help="random legal schedules per shape")
    parser.add_argument("--shapes", default=os.path.join(
        HERE, "..", "test", "Space", "Inputs", "shapes"))
    parser.add_argument("--out", type=output_path, default="random_schedules.json")
    args = parser.parse_args()
    run = os.path.join(args.build, "bin", "tcl-run")
    work = tempfile.mkdtemp(prefix="tcl-random-")
    rows = []
    per_kind = collections.defaultdict(lambda: [0, 0, 0])
    print("%-36s %9s %7s %7s %12s" % ("shape", "evaluated", "failed", "scalar", "legal"))
    for name in sorted(os.listdir(args.shapes)):
        if not name.endswith(".mlir"):
            continue
        kind = name.split("-")[0]
        json_path = os.path.join(work, name + ".json")
        result = subprocess.run(
            [run, os.path.join(args.shapes, name), "--random-schedules=%d" % args.count,
             "--check", "--warmup=0", "--repeats=1", "--json=" + json_path],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        legal = next((line.split(" random legal schedules of ")[1].split(",")[0]
                      for line in result.stdout.splitlines()
                      if " random legal schedules of " in line), "?")
        if not os.path.exists(json_path):
            sys.stderr.write(result.stdout[-3000:] + result.stderr[-3000:])
            rows.append({"shape": name, "kind": kind, "evaluated": 0, "failed": args.count,
                         "scalar": 0})
            per_kind[kind][1] += args.count
            continue
        with open(json_path) as f:
            report = json.load(f)
        candidates = report["candidates"]
        failed = [c for c in candidates if not c["ok"]]
        scalar = [c for c in candidates if c["ok"] and c["scalar_fallback"]]
        for c in failed:
            print("  FAILED %s: %s" % (c["schedule"], c["failure"][:300]))
        rows.append({"shape": name, "kind": kind, "evaluated": len(candidates),
                     "failed": len(failed), "scalar": len(scalar), "legal": legal})
        counts = per_kind[kind]
        counts[0] += len(candidates)
        counts[1] += len(failed)
        counts[2] += len(scalar)
        print("%-36s %9d %7d %7d %12s" % (name[:-5], len(candidates), len(failed),
                                          len(scalar), legal), flush=True)
    print("\nper kind:")
    print("%-16s %9s %7s %7s" % ("kind", "evaluated", "failed", "scalar"))
    for kind, (evaluated, failed, scalar) in sorted(per_kind.items()):
        print("%-16s %9d %7d %7d" % (kind, evaluated, failed, scalar))
    total_failed = sum(v[1] + v[2] for v in per_kind.values())
    print("total: %d schedules, %d failed or scalar" %
          (sum(v[0] for v in per_kind.values()), total_failed))
    with open(args.out, "w") as f:
        json.dump({"count_per_shape": args.count, "rows": rows,
                   "per_kind": {k: dict(zip(("evaluated", "failed", "scalar"), v))
                                for k, v in per_kind.items()}}, f, indent=2)
    print("wrote", args.out)
    sys.exit(1 if total_failed else 0)


if __name__ == "__main__":
    main()
