# -*- Python -*-
"""lit configuration of tcl's tests.

Substitutions:
  %models   ../shared/models (tests using it say `REQUIRES: shared-models`)
  %zoo      the zoo generated in the build tree (splat weights); %zoo/args
            holds the same models with weights as function arguments
  %python   Debian's python3, with the tcl package importable
  %cxx      the C++ compiler tcl was built with
"""

import os

import lit.formats
import lit.util

config.name = "tcl"
config.test_format = lit.formats.ShTest(not lit.util.which("bash") is None)
config.suffixes = [".mlir", ".py", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tcl_obj_root, "test")

# Our tools first, then FileCheck/not/count from LLVM 22.
config.environment["PATH"] = os.pathsep.join(
    [config.tcl_tools_dir, config.llvm_tools_dir, "/usr/lib/llvm-22/bin",
     config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PYTHONPATH"] = config.tcl_python_dir
# Tests measure candidates but assert nothing about their speed: they take
# core locks of their own instead of queueing behind a collection running
# on the machine.
config.environment["TCL_CORE_LOCK_DIR"] = os.path.join(config.test_exec_root,
                                                       "core-locks")

config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%models", config.tcl_models_dir))
config.substitutions.append(("%zoo", config.tcl_zoo_dir))
config.substitutions.append(("%tcl_src_root", config.tcl_src_root))
config.substitutions.append(("%tcl_obj_root", config.tcl_obj_root))

if os.path.isdir(config.tcl_models_dir):
    config.available_features.add("shared-models")
if config.tcl_have_cuda:
    config.available_features.add("cuda")
# ptxas checks generated PTX without a GPU (tests of the GPU templates).
ptxas = lit.util.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
nvcc = lit.util.which("nvcc") or (
    "/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
if nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))
    config.substitutions.append(
        ("%cuda_root", os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))))
    # cuDNN ships with some toolkits only; tcl-runner's convolution
    # baselines need it.
    cuda_root = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    if os.path.exists(os.path.join(cuda_root, "include", "cudnn.h")):
        config.available_features.add("cudnn")
