#!/bin/sh
# Installs libcudaconv from the build tree into a temporary directory,
# builds consumer.c with nothing but what pkg-config says of the installed
# cudaconv.pc, and runs it against the installed library.  A header that
# does not stand alone, a wrong Cflags or Libs, a missing symbol: each
# fails here rather than in the first program outside this project.
#
#   run.sh MESON BUILD_ROOT PREFIX LIBDIR CONSUMER_C [SEED]
# Environment: CC (the compiler, default cc), PKG_CONFIG (default
# pkg-config).
set -eu

meson=$1
build_root=$2
prefix=$3
libdir=$4
consumer_c=$5
seed=${6:-1}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudaconv-api.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# runtime and devel: the library, its header, the .pc file (and the
# plugin, which is tagged runtime too); --no-rebuild: meson test has
# built everything already, and a ninja run here would race other tests
"$meson" install -C "$build_root" --no-rebuild --quiet --destdir "$tmp/root" \
  --tags runtime,devel

case $libdir in
  /*) lib=$tmp/root$libdir ;;
  *) lib=$tmp/root$prefix/$libdir ;;
esac
[ -f "$lib/pkgconfig/cudaconv.pc" ] || {
  echo "FAIL: no cudaconv.pc in $lib/pkgconfig"
  exit 1
}

# only the installed .pc file (PKG_CONFIG_LIBDIR replaces the default
# search path), its paths moved under the destdir by the sysroot
flags=$(PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_PATH= \
  PKG_CONFIG_SYSROOT_DIR=$tmp/root \
  "${PKG_CONFIG:-pkg-config}" --cflags --libs cudaconv)
echo "pkg-config --cflags --libs cudaconv: $flags"

# the source is copied away so that its directory cannot lend a header
cp "$consumer_c" "$tmp/consumer.c"
# shellcheck disable=SC2086  # CC and flags are word lists
${CC:-cc} -std=c99 -Wall -Wextra -Werror -o "$tmp/consumer" \
  "$tmp/consumer.c" $flags -lm

# the installed copy alone, not the build tree's (meson test puts that
# on LD_LIBRARY_PATH): the program has no rpath
LD_LIBRARY_PATH=$lib "$tmp/consumer" "$seed"
