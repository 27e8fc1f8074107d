#!/usr/bin/env bash
# Installs what tcl needs from Debian 12's registry (only what is missing),
# then configures and builds it. Idempotent: a second run only rebuilds what
# changed. Sourced by demo.sh and test.sh; run it alone to just build.
set -euo pipefail

TCL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TCL_BUILD="${TCL_BUILD:-$TCL_ROOT/build}"

TCL_PACKAGES=(
  cmake ninja-build g++ git
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 libomp-22-dev
  libtorch-dev libopenblas0-pthread libdnnl-dev libsqlite3-dev libxgboost-dev
  libgtest-dev pybind11-dev python3 python3-dev python3-numpy python3-matplotlib
  python3-torch python3-torchvision
  python3-psutil xz-utils
)

install_missing_packages() {
  local missing=()
  for package in "${TCL_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return
  fi
  echo "tcl: installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

configure_and_build() {
  if [ ! -f "$TCL_BUILD/build.ninja" ]; then
    cmake -G Ninja -S "$TCL_ROOT" -B "$TCL_BUILD" -DCMAKE_BUILD_TYPE=Release
  fi
  # Two cores, and MLIR translation units need ~1.5 GiB each: two jobs.
  cmake --build "$TCL_BUILD" -- -j "${TCL_JOBS:-$(nproc)}"
}

install_missing_packages
configure_and_build
export PATH="$TCL_BUILD/bin:$PATH"
