#!/usr/bin/env bash
# Builds the oracles: go-bexpr 0.1.11 … 0.1.16, each compiled from its release tag with the harness
# (scripts/oracles/harness/main.go), offline. See scripts/oracles/README.md.
#
#   scripts/oracles/build.sh [versions…]        (default: 0.1.11 0.1.12 0.1.13 0.1.14 0.1.15 0.1.16)
#
# Environment (defaults in brackets):
#   ORACLE_WORK      where the sources are extracted and the modules written [/tmp/bexpr-oracles]
#   ORACLE_BIN       where the binaries go [$ORACLE_WORK/bin]; each is oracle-<version>
#   GO               the Go toolchain [/usr/lib/go-1.23/bin/go]
#   BEXPR_MIRROR     bare git mirror of hashicorp/go-bexpr [/work/.mirror/hashicorp+go-bexpr/repo]
#   POINTER_MIRROR   bare git mirror of mitchellh/pointerstructure [/work/.mirror/mitchellh+pointerstructure/repo]
#   MAPSTRUCT_MIRROR bare git mirror of mitchellh/mapstructure [/work/.mirror/mitchellh+mapstructure/repo]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ORACLE_WORK=${ORACLE_WORK:-/tmp/bexpr-oracles}
ORACLE_BIN=${ORACLE_BIN:-$ORACLE_WORK/bin}
GO=${GO:-/usr/lib/go-1.23/bin/go}
BEXPR_MIRROR=${BEXPR_MIRROR:-/work/.mirror/hashicorp+go-bexpr/repo}
POINTER_MIRROR=${POINTER_MIRROR:-/work/.mirror/mitchellh+pointerstructure/repo}
MAPSTRUCT_MIRROR=${MAPSTRUCT_MIRROR:-/work/.mirror/mitchellh+mapstructure/repo}
# What every release pins (go.mod of go-bexpr v0.1.11 … v0.1.16; pointerstructure v1.2.1's go.mod).
POINTER_TAG=v1.2.1
MAPSTRUCT_TAG=v1.4.1

versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(0.1.11 0.1.12 0.1.13 0.1.14 0.1.15 0.1.16)

# Offline: no module proxy, no toolchain download, go.sum entries written as needed (the replaced
# modules are local directories, which go.sum does not record anyway).
export GOPROXY=off GOTOOLCHAIN=local GOFLAGS=-mod=mod
export GOCACHE=${GOCACHE:-$ORACLE_WORK/gocache} GOMODCACHE=${GOMODCACHE:-$ORACLE_WORK/gomodcache}

extract() { # mirror tag dir
  rm -rf "$3" && mkdir -p "$3"
  git --git-dir="$1" archive "$2" | tar -x -C "$3"
}

mkdir -p "$ORACLE_WORK" "$ORACLE_BIN"
"$GO" version
extract "$POINTER_MIRROR" "$POINTER_TAG" "$ORACLE_WORK/pointerstructure"
extract "$MAPSTRUCT_MIRROR" "$MAPSTRUCT_TAG" "$ORACLE_WORK/mapstructure"

for v in "${versions[@]}"; do
  src=$ORACLE_WORK/go-bexpr-$v
  extract "$BEXPR_MIRROR" "v$v" "$src"
  # The release's go.mod, rewritten: its only requirement outside the tests is pointerstructure
  # v1.2.1 (and, through it, mapstructure v1.4.1); testify, go-spew, go-difflib and yaml.v3 are
  # required by its tests only and are not on this machine. The `go` line is kept as released.
  golang=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$src/go.mod")
  cp "$src/go.mod" "$src/go.mod.released"
  rm -f "$src/go.sum"
  cat >"$src/go.mod" <<EOF
module github.com/hashicorp/go-bexpr

go $golang

require (
	github.com/mitchellh/mapstructure $MAPSTRUCT_TAG // indirect
	github.com/mitchellh/pointerstructure $POINTER_TAG
)
EOF
  # The harness, as its own module, with the release and its dependencies replaced by the trees.
  h=$ORACLE_WORK/harness-$v
  rm -rf "$h" && mkdir -p "$h"
  cp "$here/harness/main.go" "$h/main.go"
  cat >"$h/go.mod" <<EOF
module bexproracle

go 1.23

require github.com/hashicorp/go-bexpr v$v

require (
	github.com/mitchellh/mapstructure $MAPSTRUCT_TAG // indirect
	github.com/mitchellh/pointerstructure $POINTER_TAG // indirect
)

replace github.com/hashicorp/go-bexpr => $src

replace github.com/mitchellh/pointerstructure => $ORACLE_WORK/pointerstructure

replace github.com/mitchellh/mapstructure => $ORACLE_WORK/mapstructure
EOF
  (cd "$h" && "$GO" build -trimpath -o "$ORACLE_BIN/oracle-$v" .)
  echo "built $ORACLE_BIN/oracle-$v (go-bexpr v$v, go.mod's go $golang)"
done
