"""The replay's JSON: a point per trial, the best found never falls, and
every task's best record is found once all its records are revealed."""
import json
import sys

for path in sys.argv[1:]:
    replay = json.load(open(path))["replay"]
    assert [p["trials"] for p in replay] == list(range(1, len(replay) + 1)), path
    means = [p["mean_best_found"] for p in replay]
    assert all(b >= a - 1e-12 for a, b in zip(means, means[1:])), (path, means)
    assert abs(means[-1] - 1) < 1e-9, (path, means[-1])
    assert 0 < means[0] <= 1, (path, means[0])
