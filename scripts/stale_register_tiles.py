#!/usr/bin/python3
"""The records that the register-tile fix of 2026-12-02T08:54 UTC made stale.

Before it, a register tile (matmul `reg_n`, convolution `reg_c`) whose
vector count is not a power of two (3, 5, 6 or 7 vectors of LANES floats)
lowered to vectors that x86 legalization spilled element by element, 6-32x
slower than tcl generates them now. Records of such schedules on TARGET in a
dataset (tcl-db export, .jsonl or .jsonl.xz) measured code tcl no longer
generates.

  tasks DATASET TARGET --lanes=N   prints the keys of the tasks with such a
                                   record, one per line, for
                                   scripts/remeasure_dataset.sh
  drop DATASET TARGET --lanes=N    rewrites DATASET without those records,
                                   for a target this machine cannot measure
                                   (the task's other records stay comparable)
"""
import argparse
import json
import lzma
import os


def open_dataset(path, mode='rt', compress=None):
    """Opens `path`, compressed with xz when `compress` (default: when the
    name ends in .xz)."""
    if not (path.endswith('.xz') if compress is None else compress):
        return open(path, mode)
    return lzma.open(path, mode, preset=9 if 'w' in mode else None)


def has_wide_register_tile(record, lanes):
    for item in record['assignment'].split(','):
        knob, _, value = item.partition('=')
        if knob.endswith(('.reg_n', '.reg_c')):
            vectors, rest = divmod(int(value), lanes)
            if rest == 0 and vectors > 2 and vectors & (vectors - 1):
                return True
    return False


def is_stale(record, target, lanes):
    return (record['type'] == 'record' and record['target'] == target
            and has_wide_register_tile(record, lanes))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('action', choices=['tasks', 'drop'])
    parser.add_argument('dataset')
    parser.add_argument('target', help='e.g. x86_64:x86-64-v3:1t')
    parser.add_argument('--lanes', type=int, required=True,
                        help='floats per vector register of TARGET (4, 8, 16)')
    args = parser.parse_args()
    with open_dataset(args.dataset) as lines:
        objects = [json.loads(line) for line in lines]
    stale = [is_stale(o, args.target, args.lanes) for o in objects]
    if args.action == 'tasks':
        tasks = dict.fromkeys(o['task'] for o, s in zip(objects, stale) if s)
        for task in tasks:
            print(task)
        return
    partial = args.dataset + '.partial'
    with open_dataset(partial, 'wt', compress=args.dataset.endswith('.xz')) as out:
        for o, s in zip(objects, stale):
            if not s:
                out.write(json.dumps(o, sort_keys=True, separators=(',', ':')) + '\n')
    os.replace(partial, args.dataset)
    print(f'{args.dataset}: dropped {sum(stale)} records of {args.target}')


if __name__ == '__main__':
    main()
