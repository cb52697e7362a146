#!/usr/bin/env bash
# Runs every test: formatting and lints (native and wasm32), the native tests, the wasm build,
# the component tests in headless Chromium and the end-to-end tests. Fails on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n== %s\n' "$*"; }

step "cargo fetch"
cargo fetch

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (native)"
cargo clippy --all-targets -- -D warnings

step "cargo clippy (wasm32)"
cargo clippy --target wasm32-unknown-unknown --all-targets -- -D warnings

step "cargo doc (native and wasm32, the core and the app): no rustdoc warning (broken or private links among them)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib --workspace
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib --workspace --target wasm32-unknown-unknown

step "doc examples: every public engine function a caller uses has one"
python3 scripts/doc_examples.py --check

step "native tests (cargo test --release)"
cargo test --release

if [ -f tests/web.rs ]; then
  step "component tests in headless Chromium (wasm-bindgen-test)"
  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --features probes --test web --test web_deferred
fi

step "wasm build and end-to-end tests"
bash e2e/run.sh
