"""Fails unless every given tcl-train JSON report has the same parameter count."""
import json
import sys

counts = [json.load(open(path))["parameters"] for path in sys.argv[1:]]
if len(set(counts)) != 1:
    sys.exit("parameter counts differ: %s" % counts)
print("%d parameters in %d reports" % (counts[0], len(counts)))
