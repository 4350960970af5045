#!/usr/bin/env bash
# Build the Debian package: target/debian/zinejudge_<version>-1_<arch>.deb.
#
# usage: scripts/build-deb.sh
#
# Needs cargo-deb (installed here at the pinned version when missing, from
# crates.io, built from source). The release binary is built first, then
# the manual pages are generated from it (`zinejudge man --dir`), then
# cargo-deb packages both with the unit, the configuration and the
# maintainer scripts ([package.metadata.deb] in Cargo.toml).
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_DEB_VERSION=3.8.0

if [ "$(cargo deb --version 2>/dev/null)" != "cargo-deb $CARGO_DEB_VERSION" ]; then
  echo "build-deb: installing cargo-deb $CARGO_DEB_VERSION (a few minutes, once)"
  cargo install cargo-deb --version "$CARGO_DEB_VERSION" --locked --quiet
fi

cargo build --release --locked --quiet
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
# The pages go where [package.metadata.deb] looks: target/man in the tree.
rm -rf target/man
"$target_dir/release/zinejudge" man --dir target/man
rm -f "$target_dir"/debian/zinejudge_*.deb
cargo deb --no-build --locked --quiet
ls "$target_dir"/debian/zinejudge_*.deb
