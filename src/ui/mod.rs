//! The browser app. [`model`] is its pure half (controls, reducers, geometry, the figures' and
//! charts' numbers, all from the core), compiled natively so that `cargo test` covers it;
//! `components` (wasm32 only) are the Yew components that draw it and never recompute physics.
//! [`i18n`] holds every string in English and Chinese.

#[cfg(target_arch = "wasm32")]
mod components;
#[cfg(target_arch = "wasm32")]
pub use components::chapter::chapter_section_html;
#[cfg(target_arch = "wasm32")]
pub use components::root::{Loaders, lab_html, nccl_html};
pub mod i18n;
pub mod model;

/// Mounts the app on the page's body, replacing index.html's loading note.
#[cfg(target_arch = "wasm32")]
pub fn start(loaders: Loaders) {
    components::root::set_loaders(loaders);
    if let Some(loading) = gloo::utils::document().get_element_by_id("loading") {
        loading.remove();
    }
    yew::Renderer::<components::root::Root>::new().render();
}

/// Serves the scaling charts' points in a Web Worker: the whole work of the `points-worker`
/// binary, which Trunk builds next to the app.
#[cfg(target_arch = "wasm32")]
pub fn serve_points() {
    components::workers::serve();
}

/// The app mounted inside an element by [`mount`]; dropping it leaves the app running.
#[cfg(target_arch = "wasm32")]
pub struct MountedApp(yew::AppHandle<components::root::Root>);

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
    components::root::set_loaders(Loaders {
        lab: |_| Box::pin(async { Some(components::root::lab_html()) }),
        nccl: |_| Box::pin(async { Some(components::root::nccl_html()) }),
        chapter: |i| Box::pin(async move { Some(components::chapter::chapter_section_html(i)) }),
    });
    MountedApp(yew::Renderer::<components::root::Root>::with_root(host).render())
}

/// What the component tests mount apart from the app (with the `probes` feature only).
#[cfg(all(target_arch = "wasm32", feature = "probes"))]
#[doc(hidden)]
pub mod probes {
    use super::components::root;

    /// Two deferred sections, the second taken away before its turn comes; dropping the handle
    /// leaves them on the page.
    pub fn mount_deferred_pair(host: web_sys::Element) -> yew::AppHandle<root::DeferredProbe> {
        yew::Renderer::<root::DeferredProbe>::with_root(host).render()
    }

    /// Whether every deferred section on the page has its content in place.
    pub fn page_complete() -> bool {
        root::page_complete()
    }
}
