#!/usr/bin/env bash
# Builds the release app (dist/) and the native CLI the tests compare with, then runs the end-to-end
# tests in Debian's Chromium. Screenshots go to e2e/screenshots/, measurements to e2e/out/perf.json.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
trunk build --release --offline
cargo build --release --offline --bin allreduce-lab
[ -d node_modules/playwright-core ] || npm ci
node --test e2e/
