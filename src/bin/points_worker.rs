//! The scaling charts' Web Worker (see `ui::components::workers`): Trunk builds it for the
//! browser next to the app (index.html). It has no use natively.

#[cfg(target_arch = "wasm32")]
fn main() {
    allreduce_lab::ui::serve_points();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("points-worker runs only as the browser app's Web Worker; use `allreduce-lab` here");
    std::process::exit(2);
}
