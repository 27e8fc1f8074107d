"""tcl: auto-tuning of linalg tensor programs on MLIR.

The native extension ``_tcl`` exposes the C++ API; this package decodes its
JSON answers into Python objects.
"""

import json

from . import _tcl

__all__ = ["extract_tasks", "extract_tasks_from_file", "version"]


def extract_tasks(source, filename="<string>"):
    """Tasks of an MLIR module given as text, as the dict that
    ``tcl-opt --tcl-extract-tasks`` prints: ``tasks``, ``unsupported`` and
    ``summary``. Raises ValueError with file:line diagnostics on bad input."""
    return json.loads(_tcl.extract_tasks_json(source, filename))


def extract_tasks_from_file(path):
    """extract_tasks on the contents of ``path``."""
    with open(path, encoding="utf-8") as handle:
        return extract_tasks(handle.read(), str(path))


def version():
    """The tcl and LLVM versions this package was built with."""
    return _tcl.version()
