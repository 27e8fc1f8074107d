#!/usr/bin/python3
"""Lists the tasks of a dataset (tcl-db export, .jsonl or .jsonl.xz) that
have a record on TARGET whose register tile (matmul `reg_n`, convolution
`reg_c`) is a vector count that is not a power of two: 3, 5, 6 or 7 vectors
of LANES floats. Before the register-tile fix of 2026-12-02 these lowered to
vectors that x86 legalization spilled element by element, so their tasks'
records measured code tcl no longer generates. Prints the task keys, one
per line, for scripts/remeasure_dataset.sh."""
import argparse
import json
import lzma


def open_dataset(path):
    return lzma.open(path, 'rt') if path.endswith('.xz') else open(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('dataset')
    parser.add_argument('target', help='e.g. x86_64:x86-64-v3:1t')
    parser.add_argument('--lanes', type=int, required=True,
                        help='floats per vector register of TARGET (4, 8, 16)')
    args = parser.parse_args()
    tasks = []
    with open_dataset(args.dataset) as lines:
        for line in lines:
            record = json.loads(line)
            if record['type'] != 'record' or record['target'] != args.target:
                continue
            for item in record['assignment'].split(','):
                knob, _, value = item.partition('=')
                if not knob.endswith(('.reg_n', '.reg_c')):
                    continue
                vectors, rest = divmod(int(value), args.lanes)
                if rest == 0 and vectors > 2 and vectors & (vectors - 1):
                    if record['task'] not in tasks:
                        tasks.append(record['task'])
    print('\n'.join(tasks))


if __name__ == '__main__':
    main()
