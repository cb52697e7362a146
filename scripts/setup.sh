#!/usr/bin/env bash
# Installs what building and testing allreduce-lab needs, skipping whatever is already there.
# Needs only the Rust toolchain, Node/npm and Debian's apt; reaches only the package registries.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

log() { printf '\n== %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! trunk --version 2>/dev/null | grep -q '0.21.14'; then
  log "installing trunk 0.21.14 (about 8 minutes on 2 cores)"
  cargo install --locked trunk --version 0.21.14
fi

# wasm-bindgen-cli must match the wasm-bindgen version in Cargo.lock exactly.
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -q " ${wb_version}\$"; then
  log "installing wasm-bindgen-cli ${wb_version}"
  cargo install wasm-bindgen-cli --version "${wb_version}" --force
fi

# Dioxus's wasm-split-cli 0.7.10 splits the page's wasm (scripts/wasm_split.py, a Trunk hook),
# with three fixes of ours (scripts/wasm-split-cli-0.7.10.patch: the splitter misread a
# relocation and zeroed strings the page still used; its loader never answered when a module
# failed to arrive). Built from crates.io's source with the patch applied;
# the installed copy is marked with the patch's hash, so a changed patch is built again.
ws_mark="$HOME/.cargo/bin/.wasm-split-cli.patch-sha256"
ws_hash=$(sha256sum scripts/wasm-split-cli-0.7.10.patch | cut -d' ' -f1)
if [ ! -x "$HOME/.cargo/bin/wasm-split-cli" ] || [ "$(cat "$ws_mark" 2>/dev/null)" != "$ws_hash" ]; then
  log "building wasm-split-cli 0.7.10 with scripts/wasm-split-cli-0.7.10.patch (about 2 minutes)"
  ws_tmp=$(mktemp -d)
  # The crate's SHA-256 as crates.io's index lists it (index.crates.io/wa/sm/wasm-split-cli):
  # a download that differs is refused before it is unpacked or built.
  curl -sSfL https://static.crates.io/crates/wasm-split-cli/wasm-split-cli-0.7.10.crate -o "$ws_tmp/crate.tar.gz"
  echo "28e4ed1e468d3d223a67299368fa9515ddd234f653b11e070f02109e9fdb0d10  $ws_tmp/crate.tar.gz" | sha256sum -c --quiet -
  tar xzf "$ws_tmp/crate.tar.gz" -C "$ws_tmp"
  patch -d "$ws_tmp/wasm-split-cli-0.7.10" -p1 < scripts/wasm-split-cli-0.7.10.patch
  cargo install --locked --force --path "$ws_tmp/wasm-split-cli-0.7.10" --root "$HOME/.cargo"
  echo "$ws_hash" > "$ws_mark"
  rm -rf "$ws_tmp"
fi

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  log "installing Debian's chromium and chromium-driver"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi

# A CJK font, as every Chinese reader's machine has: without one the browser tests' Chinese
# screenshots (docs/, e2e/screenshots/) show empty boxes. (Measured: it does not move the load
# figures, 8 loads each with and without it.)
if [ -z "$(fc-list :lang=zh family 2>/dev/null || true)" ]; then
  log "installing Debian's fonts-noto-cjk (the browser tests' Chinese)"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-noto-cjk; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-noto-cjk
  fi
fi

if [ ! -d node_modules/playwright-core ] || [ ! -x node_modules/.bin/wasm-opt ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
fi
