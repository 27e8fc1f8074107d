"""Reads tcl-print-space reports; counts tasks (at least 1 MFLOP) whose
space has fewer than 1000 legal schedules."""
import re
import sys

for path in sys.argv[1:]:
    name = path.rsplit(".", 1)[-1]
    tasks = small = exempt = 0
    flops = None
    for line in open(path):
        header = re.match(r"@tcl_\w+ \((\w+), ([0-9.]+) GFLOP\)", line)
        if header:
            flops = float(header.group(2)) * 1e9
            continue
        size = re.search(r"(\d+) legal$", line.strip())
        if size and flops is not None:
            if flops < 1e6:
                exempt += 1
            else:
                tasks += 1
                if int(size.group(1)) < 1000:
                    small += 1
                    print("  too small:", line.strip())
            flops = None
    print("%s: %d tasks, %d below 1000 legal schedules (%d exempt under 1 MFLOP)"
          % (name, tasks, small, exempt))
