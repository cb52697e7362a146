#!/usr/bin/env bash
# Builds the release app (dist/) and the native CLI the tests compare with, then runs the end-to-end
# tests in Debian's Chromium. Screenshots go to e2e/screenshots/, measurements to e2e/out/perf.json.
set -euo pipefail
cd "$(dirname "$0")/.."
# node_modules/.bin: binaryen's wasm-opt, which Trunk runs on release builds (Trunk.toml).
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
[ -d node_modules/playwright-core ] && [ -x node_modules/.bin/wasm-opt ] || npm ci
trunk build --release --offline
cargo build --release --offline --bin allreduce-lab
node --test e2e/
