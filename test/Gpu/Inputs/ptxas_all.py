"""Runs ptxas on every PTX kernel of a tcl-gpu-batch directory and prints,
per task kind, how many schedules were built and how many ptxas accepted.

usage: ptxas_all.py BATCH_DIR [--arch sm_90] [--ptxas PATH]
Exit status 1 if any kernel is rejected.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("batch")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    args = parser.parse_args()

    kinds = {}
    built = collections.Counter()
    for line in open(os.path.join(args.batch, "build.jsonl")):
        entry = json.loads(line)
        if entry["name"].startswith("ref-"):
            continue
        kinds[entry["name"]] = entry["kind"]
        if entry["status"] == "built":
            built[entry["kind"]] += 1

    def check(name):
        ptx = os.path.join(args.batch, name + ".ptx")
        result = subprocess.run([args.ptxas, "-arch=" + args.arch, ptx, "-o", os.devnull],
                                capture_output=True, text=True)
        return name, result.returncode == 0, result.stderr.strip()

    names = [name for name in kinds if os.path.exists(os.path.join(args.batch, name + ".ptx"))]
    accepted = collections.Counter()
    rejected = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for name, ok, message in pool.map(check, names):
            if ok:
                accepted[kinds[name]] += 1
            else:
                rejected.append((name, message))
    for kind in sorted(set(kinds.values())):
        print("%s: %d built, %d accepted by ptxas" % (kind, built[kind], accepted[kind]))
    for name, message in rejected:
        print("rejected %s: %s" % (name, message.splitlines()[0] if message else ""))
    print("total: %d built, %d accepted, %d rejected"
          % (sum(built.values()), sum(accepted.values()), len(rejected)))
    return 1 if rejected else 0


if __name__ == "__main__":
    sys.exit(main())
