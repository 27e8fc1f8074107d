"""SIGKILLs a running collection, restarts it, and checks that no committed
record was lost and that the restart resumed instead of starting over."""
import json
import os
import signal
import subprocess
import sys
import time

database, model = sys.argv[1], sys.argv[2]
collect = ['tcl-collect', model, f'--db={database}', '--schedules-per-task=12',
           '--round-size=3', '--onednn=none', '--no-progress', '--repeats=3',
           '--workers=1']


def exported():
    text = subprocess.run(['tcl-db', 'export', database], check=True,
                          capture_output=True, text=True).stdout
    return [json.loads(line) for line in text.splitlines()
            if json.loads(line)['type'] == 'record']


def count():
    if not os.path.exists(database):
        return 0
    summary = subprocess.run(['tcl-db', 'summary', database, '--json'],
                             capture_output=True, text=True)
    return json.loads(summary.stdout)['records'] if summary.returncode == 0 else 0


first = subprocess.Popen(collect, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
deadline = time.time() + 120
while count() < 5 and time.time() < deadline and first.poll() is None:
    time.sleep(0.05)
os.kill(first.pid, signal.SIGKILL)
first.wait()
before = exported()
assert 5 <= len(before) < 24, f'killed too late or too early: {len(before)} records'
# The workers died with the collector: nothing is written after the kill.
time.sleep(1)
assert len(exported()) == len(before), 'a worker outlived its collector'

second = subprocess.run(collect, capture_output=True, text=True, check=True)
print(second.stderr.strip().splitlines()[-1])
after = exported()
uids = {r['uid'] for r in after}
lost = [r for r in before if r['uid'] not in uids]
pairs = {}
for r in after:
    pairs.setdefault((r['task'], r['target']), []).append(r['assignment'])
duplicates = sum(len(a) - len(set(a)) for a in pairs.values())
print(f'killed after {len(before)} records; {len(lost)} lost; '
      f'{len(after)} records after the restart; {duplicates} measured twice')
