"""Checks `tcl-db best --json` against the records of `tcl-db export`: every
task's best is a valid record and the fastest valid one; broken records are
counted, whatever their times."""
import json
import sys

records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
tasks = {r['key']: r['kind'] for r in records if r['type'] == 'task'}
best = {b['task']: b for b in json.load(open(sys.argv[2]))}
for key, kind in sorted(tasks.items(), key=lambda item: item[1]):
    mine = [r for r in records if r['type'] == 'record' and r['task'] == key]
    valid = [r for r in mine if r['status'] == 'ok' and not r['scalar_fallback']]
    broken = [r for r in mine if r['status'] != 'ok']
    chosen = [r for r in mine if r['assignment'] == best[key]['assignment']]
    assert len(chosen) == 1 and chosen[0]['status'] == 'ok', chosen
    assert chosen[0]['median_s'] == min(r['median_s'] for r in valid)
    print(f'{kind}: best is ok and the fastest of {len(valid)} valid records; '
          f'{len(broken)} broken records')
