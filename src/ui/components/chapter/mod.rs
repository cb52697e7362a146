//! The guided chapter: one section per idea of the course chapter, each with a small live figure
//! driven by the core. [`crate::ui::model::chapter`] and its neighbours compute what the figures
//! show (natively testable); these components draw it.

mod claims;
mod compare;
mod layers;
mod map;
mod ring;
mod tree;
mod versus;
mod versus_real;
mod why;

pub use guide::chapter_guide;

mod guide {
    use super::{compare, layers, map, ring, tree, versus, why};
    use crate::ui::components::chapter::claims::ClaimsPanel;
    use crate::ui::components::root::{Deferred, PresentButton};
    use crate::ui::i18n::{Key, Lang, LangContext, lang_switch, tr};
    use yew::prelude::*;

    /// The sections in chapter order: (anchor, short title for the navigation).
    pub const SECTIONS: [(&str, Key); 8] = [
        ("why-not-8x", Key::NavWhy),
        ("four-layers", Key::NavLayers),
        ("ring", Key::NavRing),
        ("tree", Key::NavTree),
        ("versus", Key::VersusNav),
        ("compare", Key::NavCompare),
        ("map", Key::NavMap),
        ("claims", Key::NavClaims),
    ];

    /// The guided chapter: a top bar (language, contents, the way to the lab), then one section
    /// per idea, then the claims. A function of the page's render (which this only follows), not a
    /// component: each component type costs the page about 470 B of Yew's code. The same for the
    /// map, a pure function of the language. `ctx` switches the language (none outside a
    /// `LangProvider`).
    pub fn chapter_guide(lang: Lang, ctx: Option<&LangContext>) -> Html {
        html! {
            <div class="chapter" data-testid="chapter-guide">
                <nav class="ch-topbar" aria-label={tr(lang, Key::Contents)}>
                    <a class="ch-brand" href="#top">{ "allreduce-lab" }</a>
                    <ol class="ch-toc">
                        { for SECTIONS.iter().map(|(id, key)| html! {
                            <li><a href={format!("#{id}")}>{ tr(lang, *key) }</a></li>
                        }) }
                    </ol>
                    <div class="ch-topbar-actions">
                        { lang_switch(ctx) }
                        <PresentButton testid="present-toggle" />
                        <a class="ch-open-lab" href="#lab" data-testid="open-lab">{ tr(lang, Key::OpenLab) }{ " ↓" }</a>
                    </div>
                </nav>
                <header class="ch-hero" id="top">
                    <h1>{ tr(lang, Key::ChapterTitle) }</h1>
                    <p class="ch-lede">{ tr(lang, Key::Lede) }</p>
                </header>
                // Each section simulates as it mounts: after the first frame, one task each. §1.1, the
                // figure in view at the top, first; then the lab's figure (order 2, see `root::Page`).
                <Deferred order={1} placeholder={classes!("deferred-section")}><why::WhySection /></Deferred>
                <Deferred order={3} placeholder={classes!("deferred-section")}><layers::LayersSection /></Deferred>
                <Deferred order={4} placeholder={classes!("deferred-section")}><ring::RingSection /></Deferred>
                <Deferred order={5} placeholder={classes!("deferred-section")}><tree::TreeSection /></Deferred>
                <Deferred order={6} placeholder={classes!("deferred-section")}><versus::VersusSection /></Deferred>
                <Deferred order={7} placeholder={classes!("deferred-section")}><compare::CompareSection /></Deferred>
                <Deferred order={8} placeholder={classes!("deferred-section")}>{ map::map_section(lang) }</Deferred>
                <Deferred order={9} placeholder={classes!("deferred-section")}><ClaimsPanel /></Deferred>
            </div>
        }
    }
}
