#!/usr/bin/env bash
# Builds the app and serves it on http://127.0.0.1:8080 (installs what is missing first).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# node_modules/.bin: binaryen's wasm-opt, which Trunk runs on release builds (Trunk.toml).
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
cargo fetch
exec trunk serve --release --offline --address 127.0.0.1 --port 8080
