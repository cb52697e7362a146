//! The language in the browser: detected, provided to every component, switched.

use super::{Key, Lang, tr};
use yew::prelude::*;

/// The current language and a way to change it.
#[derive(Clone, PartialEq)]
pub struct LangContext {
    pub lang: Lang,
    pub set: Callback<Lang>,
}

/// The language the browser prefers.
pub fn detect() -> Lang {
    let window = web_sys::window();
    // A shared link's `lang=` wins over the browser's language.
    let from_link = window
        .as_ref()
        .and_then(|w| w.location().search().ok())
        .and_then(|q| {
            q.trim_start_matches('?')
                .split('&')
                .find_map(|p| p.strip_prefix("lang=").map(Lang::from_tag))
        });
    from_link.unwrap_or_else(|| {
        window
            .and_then(|w| w.navigator().language())
            .map_or(Lang::En, |tag| Lang::from_tag(&tag))
    })
}

/// Tells the page (and screen readers, and font selection) which language it is in.
fn mark_document(lang: Lang) {
    if let Some(root) = gloo::utils::document().document_element() {
        let _ = root.set_attribute("lang", lang.tag());
    }
}

#[derive(Properties, PartialEq)]
pub struct LangProviderProps {
    #[prop_or_default]
    pub children: Html,
}

/// Holds the language for everything inside it.
#[component]
pub fn LangProvider(props: &LangProviderProps) -> Html {
    let lang = use_state(detect);
    use_effect_with(*lang, |&l| mark_document(l));
    let set = {
        let lang = lang.clone();
        Callback::from(move |l: Lang| lang.set(l))
    };
    let context = LangContext { lang: *lang, set };
    html! {
        <ContextProvider<LangContext> {context}>
            { props.children.clone() }
        </ContextProvider<LangContext>>
    }
}

/// The current language (English outside a [`LangProvider`]).
#[hook]
pub fn use_lang() -> Lang {
    use_context::<LangContext>().map_or(Lang::En, |c| c.lang)
}

/// A button that switches to the other language; it names that language in its own words. A
/// function of the page's render, which reads the language's context (`ctx`: none outside a
/// [`LangProvider`]) and so renders whenever the language changes.
pub fn lang_switch(ctx: Option<&LangContext>) -> Html {
    let Some(ctx) = ctx else {
        return Html::default();
    };
    let (lang, set) = (ctx.lang, ctx.set.clone());
    let onclick = Callback::from(move |_| set.emit(lang.other()));
    html! {
        <button type="button" class="lang-switch" data-testid="lang-switch"
                aria-label={tr(lang, Key::SwitchLanguage)} {onclick}>
            <span lang={lang.other().tag()}>{ tr(lang, Key::OtherLanguageName) }</span>
        </button>
    }
}
