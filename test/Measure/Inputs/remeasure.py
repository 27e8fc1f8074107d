"""Re-measures one task of a collected database, then the rest, and checks
that each re-measured schedule has exactly one record, newer than the
cutoff, and that nothing else changed."""
import json
import subprocess
import sys
import time

database = sys.argv[1]


def records():
    text = subprocess.run(['tcl-db', 'export', database], check=True,
                          capture_output=True, text=True).stdout
    return [r for r in map(json.loads, text.splitlines()) if r['type'] == 'record']


def remeasure(cutoff, *extra):
    run = subprocess.run(['tcl-collect', f'--db={database}', '--onednn=none',
                          '--no-progress', '--repeats=3', '--workers=1',
                          f'--remeasure-before={cutoff}', *extra],
                         capture_output=True, text=True, check=True)
    print(run.stderr.strip().splitlines()[0])


before = records()
tasks = sorted({r['task'] for r in before})
time.sleep(1.1)
cutoff = int(time.time())

remeasure(cutoff, f'--tasks={tasks[0]}')
after = records()
old = {r['uid'] for r in before}
for task in tasks:
    was = sorted(r['assignment'] for r in before if r['task'] == task)
    now = [r for r in after if r['task'] == task]
    fresh = [r for r in now if r['uid'] not in old and r['created_at'] >= cutoff]
    print(f'{"first" if task == tasks[0] else "other"} task: {len(was)} schedules, '
          f'{len(now)} records, {len(fresh)} fresh, same schedules: '
          f'{sorted(r["assignment"] for r in now) == was}')

# Nothing is stale in that task any more; the other task still is.
remeasure(cutoff, f'--tasks={tasks[0]}')
remeasure(cutoff)
final = records()
print(f'after all: {len(final)} records, '
      f'{sum(r["created_at"] >= cutoff for r in final)} fresh, '
      f'{len({(r["task"], r["assignment"]) for r in final})} schedules')
