#!/usr/bin/env bash
# What the cluster tests (tests/cluster/) run for real: a single-node Kubernetes "the hard way"
# (../shared/LAB-kubernetes.md) and moto as the EKS API.
#   - Debian: containerd, runc, the CNI plugins, iptables, busybox-static (the test images);
#   - kube-apiserver, kube-controller-manager, kube-scheduler and kubelet built from the
#     k8s.io/kubernetes Go module, etcd from its own: only the binaries are kept, in
#     $cache/kubernetes-$K8S_VERSION and $cache/etcd-$ETCD_VERSION ($DUETKIT_TOOLS_CACHE,
#     default ~/.cache/duetkit-tools); the Go module and build caches of the build (~5 GB) are
#     made in a temporary directory and removed;
#   - the pause program of the test images (a static Go binary, cached by source hash);
#   - kind's CLI (built from its Go module), for the tests of provider kind;
#   - moto[server] and cfn-lint in a venv, cached by version.
# Everything is linked into .tools/k8s (git-ignored), where the tests look. Idempotent: a
# second run only checks and links. Nothing is started here: the tests start the cluster and
# stop it (tests/support/k8s/). Cold ~12-14 min of both cores (the Go build), warm ~1 s.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
K8S_VERSION=v1.36.3
ETCD_VERSION=v3.6.16
MOTO_VERSION=5.2.5
CFN_LINT_VERSION=1.58.0
KIND_VERSION=v0.33.0
# shellcheck source=lib.sh
source .ci/lib.sh # setup_name, started, cache, say, sudo_
sudo_why='installing Debian packages needs root'
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
mkdir -p "$cache" .tools/k8s/bin

debs=(containerd runc containernetworking-plugins iptables conntrack busybox-static python3-venv)
missing=()
for deb in "${debs[@]}"; do
  dpkg-query -W -f '${Status}' "$deb" 2>/dev/null | grep -q 'install ok installed' || missing+=("$deb")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  sudo_ apt-get update -qq
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The Debian package starts containerd where a service manager runs; the tests start their own
# with their own configuration and stop it, so a packaged one must not hold the socket.
command -v go >/dev/null || {
  echo "setup-k8s: go is not on PATH; Kubernetes and etcd are built with it (https://go.dev/doc/install)" >&2
  exit 1
}

# build_in DIR: runs the rest of the arguments with throw-away Go caches under DIR.
build_in() {
  local dir=$1
  shift
  mkdir -p "$dir/mod" "$dir/cache"
  (cd "$dir" && GOMODCACHE="$dir/mod" GOCACHE="$dir/cache" GOPATH="$dir/gopath" GOTOOLCHAIN=local "$@")
}
drop() { chmod -R u+w "$1" 2>/dev/null || true; rm -rf "$1"; }

k8s=$cache/kubernetes-$K8S_VERSION
k8s_bins=(kube-apiserver kube-controller-manager kube-scheduler kubelet)
have_all() { for b in "${k8s_bins[@]}"; do [ -x "$k8s/$b" ] || return 1; done; }
if ! have_all; then
  say "building Kubernetes $K8S_VERSION (~10 min of both cores)"
  work=$(mktemp -d "$cache/.kubernetes-build.XXXXXX")
  trap 'drop "$work"' EXIT
  minor=${K8S_VERSION#v1.}
  staging_version=v0.${minor}
  build_in "$work" bash -euo pipefail -c '
    gomod=$(go mod download -json "k8s.io/kubernetes@'"$K8S_VERSION"'" | sed -n "s/^\s*\"GoMod\": \"\(.*\)\",\?$/\1/p")
    {
      echo "module duetkit.local/kubernetes-build"
      echo "go 1.25"
      echo "require k8s.io/kubernetes '"$K8S_VERSION"'"
      echo "replace ("
      # every staging module of k8s.io/kubernetes, at its published version
      sed -n "s#^\s*\(k8s.io/[a-z0-9-]*\) => ./staging/src/k8s.io/[a-z0-9-]*\$#  \1 => \1 '"$staging_version"'#p" "$gomod"
      echo ")"
    } > go.mod
    echo "package tools" > tools.go
    go mod tidy -e >/dev/null 2>&1 || true
    go get "k8s.io/kubernetes@'"$K8S_VERSION"'"
    V=k8s.io/component-base/version
    go build -mod=mod -trimpath -ldflags "-s -w -X $V.gitVersion='"$K8S_VERSION"' -X $V.gitMajor=1 -X $V.gitMinor='"${minor%%.*}"' -X $V.gitTreeState=clean" \
      -o bin/ k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
      k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubelet
  '
  rm -rf "$k8s" && mkdir -p "$k8s.tmp" && mv "$work"/bin/* "$k8s.tmp/" && mv "$k8s.tmp" "$k8s"
  drop "$work"
  trap - EXIT
fi

etcd=$cache/etcd-$ETCD_VERSION
if [ ! -x "$etcd/etcd" ]; then
  say "building etcd $ETCD_VERSION (~1-3 min)"
  work=$(mktemp -d "$cache/.etcd-build.XXXXXX")
  trap 'drop "$work"' EXIT
  build_in "$work" bash -euo pipefail -c '
    printf "module duetkit.local/etcd-build\ngo 1.25\n" > go.mod
    go get "go.etcd.io/etcd/server/v3@'"$ETCD_VERSION"'"
    go build -mod=mod -trimpath -ldflags "-s -w" -o bin/etcd go.etcd.io/etcd/server/v3
  '
  rm -rf "$etcd" && mkdir -p "$etcd.tmp" && mv "$work"/bin/etcd "$etcd.tmp/" && mv "$etcd.tmp" "$etcd"
  drop "$work"
  trap - EXIT
fi

# The pause program the test cluster's sandboxes run (containerd's sandbox_image).
pause_src=$repo/tests/support/k8s/pause/main.go
pause=$cache/k8s-pause-$(sha256sum "$pause_src" | cut -c1-12)
if [ ! -x "$pause/pause" ]; then
  say 'pause program'
  mkdir -p "$pause.tmp"
  (cd "$(dirname "$pause_src")" && CGO_ENABLED=0 GOTOOLCHAIN=local go build -trimpath -ldflags "-s -w" -o "$pause.tmp/pause" main.go)
  rm -rf "$pause" && mv "$pause.tmp" "$pause"
fi

# kind's CLI, for the tests of provider kind: it validates the generated configuration (there
# is no Docker engine here to go further; see docs/cluster.md).
kind=$cache/kind-$KIND_VERSION
if [ ! -x "$kind/kind" ]; then
  say "building kind $KIND_VERSION"
  work=$(mktemp -d "$cache/.kind-build.XXXXXX")
  trap 'drop "$work"' EXIT
  build_in "$work" env GOBIN="$work/bin" go install "sigs.k8s.io/kind@$KIND_VERSION"
  rm -rf "$kind" && mkdir -p "$kind.tmp" && mv "$work/bin/kind" "$kind.tmp/" && mv "$kind.tmp" "$kind"
  drop "$work"
  trap - EXIT
fi

# moto (the EKS/EC2/STS API), and cfn-lint (checks docs/eks-iam.yml), in one venv.
moto=$cache/venv-moto-$MOTO_VERSION-cfn-lint-$CFN_LINT_VERSION-$(python3 --version | cut -d' ' -f2)
if ! "$moto/bin/python" -c 'import moto.server, cfnlint' 2>/dev/null; then
  say "venv with moto[server] $MOTO_VERSION and cfn-lint $CFN_LINT_VERSION"
  rm -rf "$moto"
  python3 -m venv "$moto"
  "$moto/bin/pip" install -q --disable-pip-version-check "moto[server]==$MOTO_VERSION" "cfn-lint==$CFN_LINT_VERSION"
fi

for b in "${k8s_bins[@]}"; do ln -sfn "$k8s/$b" ".tools/k8s/bin/$b"; done
ln -sfn "$etcd/etcd" .tools/k8s/bin/etcd
ln -sfn "$pause/pause" .tools/k8s/bin/pause
ln -sfn "$moto/bin/moto_server" .tools/k8s/bin/moto_server
ln -sfn "$moto/bin/cfn-lint" .tools/k8s/bin/cfn-lint
ln -sfn "$kind/kind" .tools/k8s/bin/kind
say "Kubernetes $K8S_VERSION, etcd $ETCD_VERSION, kind $KIND_VERSION, moto $MOTO_VERSION in $cache"
