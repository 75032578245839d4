#!/usr/bin/env bash
# examples/make-examples.sh — builds the example archive examples/random9.tar.gz:
# 200 random-playout 9x9 games written by `hyeongse playout` (seed fixed, so the
# same program gives the same games), packed reproducibly (sorted names, fixed
# times and owners, gzip without a time stamp), then checked with
# `hyeongse ingest --dry-run`.
#
#   examples/make-examples.sh [HYEONGSE_BINARY]     (default: build-release/cli/hyeongse)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${1:-$root/build-release/cli/hyeongse}
[ -x "$bin" ] || { echo "no hyeongse binary at $bin (build first, or pass its path)" >&2; exit 1; }
games=${HS_EXAMPLE_GAMES:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" playout --size 9 --games "$games" --seed 20240901 --komi 7 --out "$tmp/random9"
(cd "$tmp" && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
     -cf - random9 | gzip -9n > "$here/random9.tar.gz")
echo "wrote $here/random9.tar.gz"
"$bin" ingest "$here/random9.tar.gz" --dry-run --no-progress
