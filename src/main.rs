//! In the browser: mount the app. Natively: the command line.

#[cfg(target_arch = "wasm32")]
fn main() {
    allreduce_lab::ui::start(allreduce_lab::ui::Loaders {
        lab: |arg| Box::pin(load(&LAB, arg)),
        nccl: |arg| Box::pin(load(&NCCL, arg)),
        chapter: |arg| Box::pin(load(&CHAPTER, arg)),
    });
}

// The page's sections in wasm modules of their own (scripts/wasm_split.py): what only the function
// a loader names reaches goes to the module its `extern "…"` names, fetched on the loader's first
// call (src/ui/components/root.rs: `Lazy`). In this binary, not the library: the worker's binary
// would export them too.
#[cfg(target_arch = "wasm32")]
static LAB: wasm_split::LazyLoader<u32, yew::Html> =
    wasm_split::lazy_loader!(extern "lab" fn lab(arg: u32) -> yew::Html);
#[cfg(target_arch = "wasm32")]
static NCCL: wasm_split::LazyLoader<u32, yew::Html> =
    wasm_split::lazy_loader!(extern "nccl" fn nccl(arg: u32) -> yew::Html);
#[cfg(target_arch = "wasm32")]
static CHAPTER: wasm_split::LazyLoader<u32, yew::Html> =
    wasm_split::lazy_loader!(extern "chapter" fn chapter(arg: u32) -> yew::Html);

#[cfg(target_arch = "wasm32")]
fn lab(_: u32) -> yew::Html {
    allreduce_lab::ui::lab_html()
}

#[cfg(target_arch = "wasm32")]
fn nccl(_: u32) -> yew::Html {
    allreduce_lab::ui::nccl_html()
}

/// The chapter's section of `Deferred` order `section` (3–9).
#[cfg(target_arch = "wasm32")]
fn chapter(section: u32) -> yew::Html {
    allreduce_lab::ui::chapter_section_html(section)
}

/// Fetches `loader`'s module (once) and renders its section; `None` if the module could not be
/// fetched or instantiated (the section then says so, and the page goes on).
#[cfg(target_arch = "wasm32")]
async fn load(
    loader: &'static wasm_split::LazyLoader<u32, yew::Html>,
    arg: u32,
) -> Option<yew::Html> {
    if !loader.load().await {
        return None;
    }
    loader.call(arg).ok()
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    // As the OS gave them: a file name need not be UTF-8.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    // `sweep`'s rows as they come, then the rest. A failed write of the rows ends it as
    // `print_result` ends a failed write of the rest: a reader gone is a normal end, anything
    // else one line and status 1 (not the rest written after a passing error, rows missing).
    let mut failed: Option<std::io::Error> = None;
    let (text, code) = allreduce_lab::cli::run_cli_to(&args, &mut |s: &str| {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let written = out.write_all(s.as_bytes()).and_then(|()| out.flush());
        if let Err(e) = &written {
            failed.get_or_insert_with(|| std::io::Error::new(e.kind(), e.to_string()));
        }
        written
    });
    let code = match failed {
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Some(e) => {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr().lock(),
                "error: cannot write the output: {e}"
            );
            1
        }
        None => allreduce_lab::cli::print_result(&text, code),
    };
    std::process::exit(code);
}
