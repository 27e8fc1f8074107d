#!/usr/bin/python3
"""Channels-first models with and without tcl-convert-conv-to-nhwc, side by
side: the default schedule of each module, one thread, kept channels-first
(`tcl-run --channels-last=false`) and rewritten channels-last (the default),
alternating in every round so that the machine's drift hits both alike.
Prints a table of medians and their ratio, and writes JSON.

The modules: a 3x3 NCHW convolution of ResNet-50's first stage, and every
model of ../shared/models whose name says nchw and whose weights are not
elided (skipped when that folder is absent).

    benchmarks/channels_last.py [--build build] [--rounds 3] [--repeats 5]
        [--out channels_last.json]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from outputs import output_path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(os.path.dirname(ROOT), "shared", "models")

CONV = """func.func @forward(%i: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%f : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %c : tensor<1x64x56x56xf32>
}
"""


def latency(tcl_run, module, channels_last, repeats):
    """The median latency tcl-run reports, in seconds."""
    output = subprocess.run(
        [tcl_run, module, "--repeats=%d" % repeats,
         "--channels-last=%s" % ("true" if channels_last else "false")],
        check=True, capture_output=True, text=True).stdout
    match = re.search(r"latency:\s+median ([0-9.]+) ms", output)
    if not match:
        sys.exit("channels_last.py: no latency in tcl-run's output:\n" + output)
    return float(match.group(1)) / 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=output_path, default="channels_last.json")
    args = parser.parse_args()
    tcl_run = os.path.join(args.build, "bin", "tcl-run")

    with tempfile.TemporaryDirectory() as scratch:
        conv = os.path.join(scratch, "conv3x3_nchw.mlir")
        with open(conv, "w") as file:
            file.write(CONV)
        modules = [("conv 3x3, 64 -> 64, 56x56", conv)]
        if os.path.isdir(MODELS):
            for name in sorted(os.listdir(MODELS)):
                if "nchw" in name and "elided" not in name and name.endswith(".mlir"):
                    modules.append((name[:-len(".mlir")], os.path.join(MODELS, name)))

        rows = []
        for label, module in modules:
            first, last = [], []
            for _ in range(args.rounds):
                first.append(latency(tcl_run, module, False, args.repeats))
                last.append(latency(tcl_run, module, True, args.repeats))
            row = {"module": label, "channels_first_s": statistics.median(first),
                   "channels_last_s": statistics.median(last),
                   "channels_first_samples_s": first, "channels_last_samples_s": last}
            row["speedup"] = row["channels_first_s"] / row["channels_last_s"]
            rows.append(row)
            print("%-28s %12.3f ms %12.3f ms %8.2fx" %
                  (label, 1e3 * row["channels_first_s"], 1e3 * row["channels_last_s"],
                   row["speedup"]), flush=True)

    print("\n| module | channels-first | channels-last | speedup |\n|---|---:|---:|---:|")
    for row in rows:
        print("| %s | %.3f ms | %.3f ms | %.2fx |" % (
            row["module"], 1e3 * row["channels_first_s"], 1e3 * row["channels_last_s"],
            row["speedup"]))
    with open(args.out, "w") as file:
        json.dump({"rounds": args.rounds, "repeats": args.repeats, "rows": rows}, file,
                  indent=2)
        file.write("\n")


if __name__ == "__main__":
    main()
