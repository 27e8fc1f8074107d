"""Fails unless every given tcl-train JSON report has the same metrics."""
import json
import sys

reports = [json.load(open(path)) for path in sys.argv[1:]]
for key in ("pca", "top1", "top5", "rmse", "parameters"):
    values = [report[key] for report in reports]
    if any(abs(value - values[0]) > 1e-9 for value in values):
        sys.exit("%s differs: %s" % (key, values))
print("same metrics in %d reports" % len(reports))
