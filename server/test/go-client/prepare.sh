#!/usr/bin/env bash
# Prepares the Go client program's dependencies: the scheduler's Go API client package
# (github.com/hashicorp/nomad/api) and the modules it imports, extracted from bare git mirrors, written
# into vendor/ by `go mod vendor` (committed: CI builds from it without network). Run it again only to
# move to other versions. See README.md in this folder.
#
#   server/test/go-client/prepare.sh
#
# Environment (defaults in brackets):
#   GO            the Go toolchain [/usr/lib/go-1.23/bin/go]
#   MIRRORS       folder of the bare mirrors, <owner>+<name>/repo [/work/.mirror]
#   NOMAD_COMMIT  the nomad commit whose api/ is used [aa026cc99cfb74a77e519a1c1f0c78ba1b452705]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GO=${GO:-/usr/lib/go-1.23/bin/go}
MIRRORS=${MIRRORS:-/work/.mirror}
NOMAD_COMMIT=${NOMAD_COMMIT:-aa026cc99cfb74a77e519a1c1f0c78ba1b452705}
# What the api package's go.mod at that commit requires (mapstructure v2.5.0 is not tagged in the
# mirror: its commit 6ffa40a, v2.4.0-35, is the mirror's head), and rootcerts' own requirement.
deps=(
  "gorilla+websocket v1.5.3 websocket"
  "hashicorp+go-cleanhttp v0.5.2 go-cleanhttp"
  "hashicorp+go-rootcerts v1.0.2 go-rootcerts"
  "hashicorp+cronexpr v1.1.3 cronexpr"
  "go-viper+mapstructure 6ffa40ae91364d0f764f1ad154b5b030f32ce46c mapstructure"
  "mitchellh+go-homedir v1.1.0 go-homedir"
)

export GOPROXY=off GOTOOLCHAIN=local GOFLAGS=-mod=mod
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GOCACHE=$work/gocache GOMODCACHE=$work/gomodcache

extract() { # mirror tree-ish dir
  mkdir -p "$3"
  git --git-dir="$MIRRORS/$1/repo" archive "$2" | tar -x -C "$3"
}

"$GO" version
modules=$here/.modules
rm -rf "$modules" && mkdir -p "$modules"
extract hashicorp+nomad "$NOMAD_COMMIT:api" "$modules/nomad-api"
for d in "${deps[@]}"; do
  set -- $d
  extract "$1" "$2" "$modules/$3"
done

# The api module's go.mod, rewritten: `go 1.25` → `go 1.23` (Debian's Go; the package builds with it),
# and only what its non-test files import (go-units, httpsnoop, shoenig/test and their own
# requirements serve its tests). The released file is kept as go.mod.released.
cp "$modules/nomad-api/go.mod" "$modules/nomad-api/go.mod.released"
cat >"$modules/nomad-api/go.mod" <<MOD
module github.com/hashicorp/nomad/api

go 1.23

require (
	github.com/go-viper/mapstructure/v2 v2.5.0
	github.com/gorilla/websocket v1.5.3
	github.com/hashicorp/cronexpr v1.1.3
	github.com/hashicorp/go-cleanhttp v0.5.2
	github.com/hashicorp/go-rootcerts v1.0.2
)

require github.com/mitchellh/go-homedir v1.1.0 // indirect
MOD
rm -f "$modules/nomad-api/go.sum"
# cronexpr v1.1.3 has no go.mod.
[ -f "$modules/cronexpr/go.mod" ] || echo "module github.com/hashicorp/cronexpr" >"$modules/cronexpr/go.mod"

cd "$here"
rm -rf vendor
"$GO" mod vendor
# Licences go mod vendor leaves out (cronexpr is dual-licensed: its APLv2 and GPLv3 files).
cp "$modules/cronexpr/APLv2" "$modules/cronexpr/GPLv3" vendor/github.com/hashicorp/cronexpr/
# What the build does not read: READMEs, CI and editor files (licence files stay).
find vendor -type f ! -name '*.go' ! -name 'modules.txt' ! -name 'LICENSE*' ! -name 'APLv2' ! -name 'GPLv3' ! -name 'AUTHORS' -delete
echo "vendor/: $(find vendor -type f | wc -l) files, $(du -sb vendor | cut -f1) bytes"
# A build from vendor/ alone, as the test does it.
GOFLAGS=-mod=vendor "$GO" build -trimpath -o "$work/go-client" .
echo "built from vendor/: ok"
