//! The guided chapter: one section per idea of the course chapter, each with a small live figure
//! driven by the core. [`crate::ui::model::chapter`] and its neighbours compute what the figures
//! show (natively testable); these components draw it.

mod claims;
mod compare;
mod layers;
mod map;
mod ring;
mod roofline;
mod tree;
mod versus;
mod versus_real;
mod why;

pub use guide::{chapter_guide, chapter_section_html};

mod guide {
    use super::{compare, layers, map, ring, tree, versus, why};
    use crate::ui::components::chapter::claims::ClaimsPanel;
    use crate::ui::components::root::{Deferred, Loader, PresentButton, loaders};
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

    /// The chapter's section of `Deferred` order `i` (3–9: every one after §1.1): the page
    /// binary's `chapter` loader calls this, so that they live in a wasm module of their own
    /// (src/main.rs).
    pub fn chapter_section_html(i: u32) -> Html {
        match i {
            3 => html! { <layers::LayersSection /> },
            4 => html! { <ring::RingSection /> },
            5 => html! { <tree::TreeSection /> },
            6 => html! { <versus::VersusSection /> },
            7 => html! { <compare::CompareSection /> },
            8 => html! { <MapSection /> },
            _ => html! { <ClaimsPanel /> },
        }
    }

    /// The chapter's map, a pure function of the language, as a component: the lazily loaded
    /// content is rendered once and kept, so it reads the language itself.
    #[component]
    fn MapSection() -> Html {
        map::map_section(crate::ui::i18n::use_lang())
    }

    /// The guided chapter: a top bar (language, contents, the way to the lab), §1.1, then a place
    /// for each later section (loaded with its module, see `chapter_section_html`), then the
    /// claims. A function of the page's render (which this only follows), not a component: each
    /// component type costs the page about 470 B of Yew's code. `ctx` switches the language (none
    /// outside a `LangProvider`).
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
                <Deferred order={3} placeholder={classes!("deferred-section")} load={Loader(loaders().chapter, 3)} />
                <Deferred order={4} placeholder={classes!("deferred-section")} load={Loader(loaders().chapter, 4)} />
                <Deferred order={5} placeholder={classes!("deferred-section")} load={Loader(loaders().chapter, 5)} />
                <Deferred order={6} placeholder={classes!("deferred-section")} load={Loader(loaders().chapter, 6)} />
                <Deferred order={7} placeholder={classes!("deferred-section")} load={Loader(loaders().chapter, 7)} />
                <Deferred order={8} placeholder={classes!("deferred-section")} load={Loader(loaders().chapter, 8)} />
                <Deferred order={9} placeholder={classes!("deferred-section")} load={Loader(loaders().chapter, 9)} />
            </div>
        }
    }
}
