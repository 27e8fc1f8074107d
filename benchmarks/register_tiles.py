#!/usr/bin/python3
"""Register-tile widths side by side: one matmul, the same cache tile, and a
register tile N wide of 1, 2, 3, 4, 6 and 8 vectors, one thread.

Widths of 3 and 6 vectors lower to vectors such as <48 x float>. Before
tcl split vectors wider than a register ahead of LLVM's codegen
(tcl::optimizeForCpu), those tiles ran 6-32x slower than their
power-of-two neighbours; this benchmark shows where each width stands. Every
schedule is checked against naive loops; one that fails is reported and left
out. Prints a table and writes JSON.

    benchmarks/register_tiles.py [--build build] [--cpu host]
        [--shape 128x768x768] [--repeats 20] [--out FILE]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from outputs import output_path

MATMUL = """func.func @forward(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%c : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"""


def space_limits(space):
    """The task's knob prefix, its vector lanes and accumulator registers,
    read from the space's register-tile constraint."""
    match = re.search(r"(matmul_[0-9a-f]+)\.reg_m \* \(\(\1\.reg_n \+ (\d+)\) / (\d+)\) <= (\d+)",
                      space)
    if not match:
        sys.exit("register_tiles.py: the space has no register-tile constraint")
    return match.group(1), int(match.group(3)), int(match.group(4))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    parser.add_argument("--cpu", default="host")
    parser.add_argument("--shape", default="128x768x768", help="MxNxK")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--out", type=output_path, default="register_tiles.json")
    args = parser.parse_args()
    m, n, k = (int(value) for value in args.shape.split("x"))
    bin_dir = os.path.join(args.build, "bin")
    work = tempfile.mkdtemp(prefix="tcl-tiles-")
    model = os.path.join(work, "matmul.mlir")
    with open(model, "w") as f:
        f.write(MATMUL.format(m=m, n=n, k=k))
    space_path = os.path.join(work, "space.mlir")
    subprocess.run([os.path.join(bin_dir, "tcl-opt"), model,
                    "--tcl-cpu-space=cpu=%s output=%s" % (args.cpu, space_path),
                    "-o", "/dev/null"], check=True)
    with open(space_path) as f:
        prefix, lanes, accumulators = space_limits(f.read())

    # One cache tile for every width: M by 64 (or M), N by the smallest
    # divisor of N that every width divides, K by 256 (or K).
    widths = [lanes * vectors for vectors in (1, 2, 3, 4, 6, 8) if lanes * vectors <= n]
    cache_n = next((c for c in range(max(widths), n + 1)
                    if n % c == 0 and all(c % w == 0 for w in widths)), None)
    if cache_n is None:
        sys.exit("register_tiles.py: no cache tile of N=%d holds every width" % n)
    cache_m = 64 if m % 64 == 0 else m
    cache_k = 256 if k % 256 == 0 else k
    rows = []
    print("matmul %dx%dx%d on %s, %d lanes, %d accumulator registers, one thread"
          % (m, n, k, args.cpu, lanes, accumulators))
    print("%8s %8s %6s %10s %10s" % ("reg_n", "vectors", "reg_m", "median ms", "GFLOP/s"))
    for width in widths:
        vectors = width // lanes
        reg_m = min(6, accumulators // vectors)
        assignment = ",".join("%s.%s=%d" % (prefix, name, value) for name, value in (
            ("cache_m", cache_m), ("cache_n", cache_n), ("cache_k", cache_k),
            ("order", 0), ("reg_m", reg_m), ("reg_n", width), ("reg_k", 1),
            ("pack_b", 0), ("cache_panels", 1)))
        schedule = os.path.join(work, "schedule_%d.mlir" % width)
        subprocess.run([os.path.join(bin_dir, "tcl-opt"), space_path,
                        "--tcl-concretize=schedule=" + assignment, "-o", schedule],
                       check=True)
        result_path = os.path.join(work, "run_%d.json" % width)
        run = subprocess.run([os.path.join(bin_dir, "tcl-run"), model, "--cpu=" + args.cpu,
                              "--num-threads=1", "--schedule=" + schedule, "--check",
                              "--repeats=%d" % args.repeats, "--json=" + result_path],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0 or not os.path.exists(result_path):
            sys.stderr.write("  reg_n=%d failed:\n%s" % (width, run.stderr[-2000:]))
            continue
        with open(result_path) as f:
            result = json.load(f)
        row = {"reg_n": width, "vectors": vectors, "reg_m": reg_m,
               "median_s": result["median_s"], "flops": result["flops"],
               "gflops": result["flops"] / result["median_s"] / 1e9}
        rows.append(row)
        print("%8d %8d %6d %10.3f %10.1f" % (width, vectors, reg_m, row["median_s"] * 1e3,
                                             row["gflops"]), flush=True)

    powers = [r["gflops"] for r in rows if r["vectors"] in (1, 2, 4, 8)]
    others = [r["gflops"] for r in rows if r["vectors"] in (3, 6)]
    summary = {}
    if powers and others:
        summary["slowest_3_or_6_over_fastest_power_of_two"] = min(others) / max(powers)
        summary["fastest_3_or_6_over_fastest_power_of_two"] = max(others) / max(powers)
        print("3 or 6 vectors against the fastest power of two: %.2f-%.2f"
              % (summary["slowest_3_or_6_over_fastest_power_of_two"],
                 summary["fastest_3_or_6_over_fastest_power_of_two"]))
    with open(args.out, "w") as f:
        json.dump({"shape": [m, n, k], "cpu": args.cpu, "lanes": lanes,
                   "cache_tile": [cache_m, cache_n, cache_k], "rows": rows,
                   "summary": summary}, f, indent=2)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
