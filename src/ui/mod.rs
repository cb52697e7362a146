//! The browser app: Yew function components that render a [`crate::sim::trace::Trace`] at one
//! simulated-time cursor. They never recompute physics. [`logic`], [`layout`] and [`view`] hold the
//! app's pure parts (slider ladders, labels, the cursor, geometry) and compile natively so that
//! `cargo test` covers them; the components are wasm32 only.

pub mod chapter;
pub mod chart_math;
pub mod i18n;
pub mod layout;
pub mod logic;
pub mod nccl_view;
pub mod query;
pub mod scaling_model;
pub mod share;
pub mod view;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod charts;
#[cfg(target_arch = "wasm32")]
mod claims_panel;
#[cfg(target_arch = "wasm32")]
mod figure;
#[cfg(target_arch = "wasm32")]
mod files;
#[cfg(target_arch = "wasm32")]
mod hooks;
#[cfg(target_arch = "wasm32")]
mod lab_nccl;
#[cfg(target_arch = "wasm32")]
mod nccl_section;
#[cfg(target_arch = "wasm32")]
mod panels;
#[cfg(target_arch = "wasm32")]
mod root;
#[cfg(target_arch = "wasm32")]
mod scaling;
#[cfg(target_arch = "wasm32")]
mod simulation;
#[cfg(target_arch = "wasm32")]
mod sliced;
#[cfg(target_arch = "wasm32")]
mod state;

/// Mounts the app on the page's body, replacing index.html's loading note.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    if let Some(loading) = gloo::utils::document().get_element_by_id("loading") {
        loading.remove();
    }
    yew::Renderer::<root::Root>::new().render();
}

/// The app mounted inside an element by [`mount`]; dropping it leaves the app running.
#[cfg(target_arch = "wasm32")]
pub struct MountedApp(yew::AppHandle<root::Root>);

#[cfg(target_arch = "wasm32")]
impl MountedApp {
    /// Removes the app and its listeners from the page.
    pub fn unmount(self) {
        self.0.destroy();
    }
}

/// Mounts the app inside `host` (the component tests render the whole page this way).
#[cfg(target_arch = "wasm32")]
pub fn mount(host: web_sys::Element) -> MountedApp {
    MountedApp(yew::Renderer::<root::Root>::with_root(host).render())
}
