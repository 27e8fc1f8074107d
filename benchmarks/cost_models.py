#!/usr/bin/python3
"""Cost models side by side on the shipped CPU dataset (TenSet's protocol).

Every model kind is trained with `tcl-train` on the tasks of the networks
NOT in --test-networks (tasks that also occur in a test network are left
out of training), stopped early on 10% of each training task's records,
and evaluated on the held-out networks: pairwise comparison accuracy (PCA),
top-1 and top-5 scores, RMSE. Also reported: parameters, training time,
inference throughput (scores/s at batch 4096 on --threads threads) and the
featurization rate of the whole dataset.

Prints a table and writes JSON (--out). Both shipped datasets (Zen 3's two
targets and Zen 5's AVX-512 target) are imported into a scratch database
unless --db is given.

    benchmarks/cost_models.py [--build build] [--models mamba,tenset-mlp,...]
                              [--test-networks resnet50,bert_base] [--seeds 1]
                              [--out cost_models.json]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from outputs import output_path

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")


#: Models beyond tcl-train's kinds: a name and the options that make it.
VARIANTS = {
    # One Mamba network of width 32, the default before two members of width
    # 24 (21,537 parameters).
    "mamba-one-network": ["--model=mamba", "--members=1", "--d-model=32"],
}

#: Every shipped CPU dataset, under data/.
SHIPPED_DATASETS = ("cpu-dataset.jsonl.xz", "cpu-dataset-znver5.jsonl.xz")


def import_dataset(bin_dir, work, files=SHIPPED_DATASETS):
    """A database in `work` holding the shipped datasets `files` (under data/)."""
    db = os.path.join(work, "dataset.db")
    for name in files:
        xz = subprocess.Popen(["xz", "-dc", os.path.join(ROOT, "data", name)],
                              stdout=subprocess.PIPE)
        subprocess.run([os.path.join(bin_dir, "tcl-db"), "import", db, "-"],
                       stdin=xz.stdout, check=True, stdout=subprocess.DEVNULL)
        if xz.wait() != 0:
            sys.exit("cannot decompress data/" + name)
    return db


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--db", help="a tuning database (default: the shipped dataset)")
    parser.add_argument("--models", default="mamba,tenset-mlp,attention,xgboost,random",
                        help="tcl-train kinds, or " + ", ".join(VARIANTS))
    parser.add_argument("--test-networks", default="resnet50,bert_base")
    parser.add_argument("--seeds", type=int, default=1,
                        help="train each model with seeds 0..N-1; the table shows medians")
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--patience", type=int, default=12)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=output_path, default="cost_models.json")
    args = parser.parse_args()
    bin_dir = os.path.join(args.build, "bin")

    with tempfile.TemporaryDirectory() as work:
        db = args.db or import_dataset(bin_dir, work)
        runs = []
        for model in args.models.split(","):
            for seed in range(args.seeds):
                out = os.path.join(work, "%s-%d.json" % (model, seed))
                command = [os.path.join(bin_dir, "tcl-train"), db] + \
                          VARIANTS.get(model, ["--model=" + model]) + [
                           "--test-networks=" + args.test_networks, "--seed=%d" % seed,
                           "--epochs=%d" % args.epochs, "--patience=%d" % args.patience,
                           "--num-threads=%d" % args.threads,
                           "--json=" + out]
                print("running: " + " ".join(command[1:]), flush=True)
                subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
                with open(out) as f:
                    runs.append(dict(json.load(f), variant=model))

    rows = []
    for model in args.models.split(","):
        mine = [run for run in runs if run["variant"] == model]
        median = lambda key: statistics.median(run[key] for run in mine)
        rows.append({"model": model, "seeds": len(mine),
                     "parameters": mine[0]["parameters"],
                     "train_seconds": median("train_seconds"),
                     "scores_per_second": median("scores_per_second"),
                     "pca": median("pca"), "top1": median("top1"), "top5": median("top5"),
                     "rmse": median("rmse")})
    print()
    print("held-out networks: %s; trained on %d records, tested on %d; featurized at "
          "%.0f schedules/s" % (args.test_networks, runs[0]["train_records"],
                                runs[0]["test_records"], runs[0]["featurize_per_second"]))
    print("%-11s %10s %9s %12s %7s %7s %7s %7s" % ("model", "parameters", "train (s)",
                                                   "scores/s", "PCA", "top-1", "top-5",
                                                   "RMSE"))
    for row in rows:
        print("%-11s %10d %9.1f %12.0f %7.4f %7.4f %7.4f %7.4f" % (
            row["model"], row["parameters"], row["train_seconds"],
            row["scores_per_second"], row["pca"], row["top1"], row["top5"], row["rmse"]))
    with open(args.out, "w") as f:
        json.dump({"test_networks": args.test_networks.split(","), "models": rows,
                   "runs": runs}, f, indent=2)
    print("\nwrote " + args.out)


if __name__ == "__main__":
    main()
