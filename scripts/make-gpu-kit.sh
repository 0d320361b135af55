#!/usr/bin/env bash
# Collects, on a Debian machine with the project's dependencies installed,
# what a GPU box without internet lacks to build `mushroom` against its own
# LibTorch: the header-only libraries (cxxopts, toml++, Eigen, nlohmann/json,
# fmt, used header-only), Chart.js for the pages' charts
# and the HDF5 C
# library with the shared libraries it loads. Usage: make-gpu-kit.sh DIR
set -euo pipefail
kit=${1:?usage: make-gpu-kit.sh DIR}
multiarch=/usr/lib/x86_64-linux-gnu
hdf5_lib=$multiarch/libhdf5_serial.so
for need in /usr/include/cxxopts.hpp /usr/include/toml++ /usr/include/eigen3 /usr/include/nlohmann /usr/include/fmt \
            /usr/share/eigen3/cmake /usr/include/hdf5/serial/hdf5.h "$hdf5_lib" /usr/share/javascript/chart.js/chart.min.js; do
  [[ -e $need ]] || { echo "make-gpu-kit: $need is missing (run scripts/setup.sh first)" >&2; exit 1; }
done
rm -rf "$kit"
mkdir -p "$kit/include" "$kit/lib" "$kit/share"
cp /usr/include/cxxopts.hpp "$kit/include/"
cp -r /usr/include/toml++ /usr/include/eigen3 /usr/include/nlohmann /usr/include/fmt "$kit/include/"
cp -r /usr/share/eigen3 "$kit/share/"
mkdir -p "$kit/share/chart.js"
cp -L /usr/share/javascript/chart.js/chart.min.js "$kit/share/chart.js/"
cp /usr/include/hdf5/serial/*.h "$kit/include/"
# libhdf5.so for the linker, the SONAME copy for the loader.
cp -L "$hdf5_lib" "$kit/lib/libhdf5.so"
cp -L "$hdf5_lib".103 "$kit/lib/"
# Everything libhdf5 loads except glibc's own libraries and zlib, which every
# box has in a compatible version (an older glibc piece would not load).
for dep in $(ldd "$hdf5_lib" | awk '/=>/ {print $3}'); do
  case $(basename "$dep") in
    libc.so*|libm.so*|libresolv.so*|libpthread.so*|libdl.so*|libz.so*) ;;
    *) cp -L "$dep" "$kit/lib/" ;;
  esac
done
echo "make-gpu-kit: $(du -sh "$kit" | cut -f1) in $kit"
