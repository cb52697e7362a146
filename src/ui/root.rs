//! The page: the language provider around the guided chapter and, below it, the full lab.

use super::app::App;
use super::chapter::ChapterGuide;
use super::i18n::{tr, use_lang, Key, LangProvider};
use super::nccl_section::NcclSection;
use yew::prelude::*;

#[component]
fn Page() -> Html {
    let lang = use_lang();
    html! {
        <>
            <ChapterGuide />
            <section id="lab" class="ch-lab" tabindex="-1" aria-labelledby="lab-title" data-testid="lab">
                <div class="ch-lab-intro">
                    <h2 id="lab-title">{ tr(lang, Key::LabHeading) }</h2>
                    <p>{ tr(lang, Key::LabIntro) }</p>
                </div>
                <App />
            </section>
            <NcclSection />
        </>
    }
}

/// The root component: everything inside reads the language with `use_lang`.
#[component]
pub fn Root() -> Html {
    html! {
        <LangProvider>
            <Page />
        </LangProvider>
    }
}
