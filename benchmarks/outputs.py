"""The benchmarks' --out: checked when the arguments are parsed, before the
run, because a report whose directory is missing would otherwise be lost
after the minutes or hours the run took."""
import argparse
import os


def output_path(path):
    """argparse type of a file the benchmark writes at the end of its run."""
    if os.path.isdir(path):
        raise argparse.ArgumentTypeError("'%s' is a directory" % path)
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise argparse.ArgumentTypeError("cannot write '%s': no directory '%s'"
                                         % (path, parent))
    if not os.access(parent, os.W_OK):
        raise argparse.ArgumentTypeError("cannot write '%s': '%s' is not writable"
                                         % (path, parent))
    return path
